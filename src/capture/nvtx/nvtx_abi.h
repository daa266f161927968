// SPDX-License-Identifier: Apache-2.0
// The part of the NVTX v3 binary interface an NVTX *tool* (the injected side) sees, declared
// by gsys so that libgsys-inject.so builds without the CUDA toolkit. An application's NVTX
// calls reach the tool like this: the header-only NVTX client dlopen()s NVTX_INJECTION64_PATH,
// calls its InitializeInjectionNvtx2(get_export_table), and the tool asks the client, through
// the CALLBACKS export table, for the function table of each module (CORE, CORE2, ...) and
// overwrites the slots it implements. Everything below is fixed by that interface: the struct
// layouts, the numbering of modules and slots, the enum values. nvtx_abi_test.cc compares
// every name with NVIDIA's headers when they are installed.
//
// Plain C (so a C test program can use it too), and no guard shared with NVIDIA's headers:
// it is not meant to be included in the same translation unit as <nvtx3/nvToolsExt.h>.
#ifndef GSYS_CAPTURE_NVTX_NVTX_ABI_H_
#define GSYS_CAPTURE_NVTX_NVTX_ABI_H_

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
#define GSYS_NVTX_CAST(type, value) (static_cast<type>(value))
#define GSYS_NVTX_FN_CAST(type, value) (reinterpret_cast<type>(value))
#else
#define GSYS_NVTX_CAST(type, value) ((type)(value))
#define GSYS_NVTX_FN_CAST(type, value) ((type)(value))
#endif

// The interface version this file describes, written into nvtxEventAttributes_t::version.
#define NVTX_VERSION 3

// --- handles (opaque to the application; gsys stores small integers in them) -------------
typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st* nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st* nvtxStringHandle_t;
typedef struct nvtxResourceHandle* nvtxResourceHandle_t;

// --- event attributes ----------------------------------------------------------------------
typedef enum nvtxColorType_t {
  NVTX_COLOR_UNKNOWN = 0,
  NVTX_COLOR_ARGB = 1  // `color` holds 0xAARRGGBB
} nvtxColorType_t;

typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,      // message.ascii: a NUL-terminated char string
  NVTX_MESSAGE_TYPE_UNICODE = 2,    // message.unicode: a NUL-terminated wchar_t string
  NVTX_MESSAGE_TYPE_REGISTERED = 3  // message.registered: from DomainRegisterString
} nvtxMessageType_t;

typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
  const char* ascii;
  const wchar_t* unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;

// What the application passes to the Ex calls. `size` is how many bytes of it the caller
// filled in: an older or careless caller may pass less, and the tool must not read past it.
typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;  // nvtxColorType_t
  uint32_t color;
  int32_t payloadType;  // nvtxPayloadType_t
  int32_t reserved0;
  union payload_t {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;  // nvtxMessageType_t
  nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;

#define NVTX_EVENT_ATTRIB_STRUCT_SIZE GSYS_NVTX_CAST(uint16_t, sizeof(nvtxEventAttributes_t))

// Resources (DomainResourceCreate) are accepted and not recorded: only the layout matters.
typedef struct nvtxResourceAttributes_v0 {
  uint16_t version;
  uint16_t size;
  int32_t identifierType;
  union identifier_t {
    const void* pValue;
    uint64_t ullValue;
  } identifier;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxResourceAttributes_v0;
typedef struct nvtxResourceAttributes_v0 nvtxResourceAttributes_t;

// --- the tool side: export tables and module function tables --------------------------------
// A slot of a module table: the tool casts its own function to this type to store it.
typedef void (*NvtxFunctionPointer)(void);
// A module table is an array of pointers to the client's slots (slot 0 is unused).
typedef NvtxFunctionPointer** NvtxFunctionTable;

typedef enum NvtxCallbackModule {
  NVTX_CB_MODULE_INVALID = 0,
  NVTX_CB_MODULE_CORE = 1,
  NVTX_CB_MODULE_CUDA = 2,
  NVTX_CB_MODULE_OPENCL = 3,
  NVTX_CB_MODULE_CUDART = 4,
  NVTX_CB_MODULE_CORE2 = 5,
  NVTX_CB_MODULE_SYNC = 6,
  NVTX_CB_MODULE_SIZE,
  NVTX_CB_MODULE_FORCE_INT = 0x7fffffff
} NvtxCallbackModule;

// Slots of the CORE module: the calls without a domain (the default domain).
typedef enum NvtxCallbackIdCore {
  NVTX_CBID_CORE_INVALID = 0,
  NVTX_CBID_CORE_MarkEx = 1,
  NVTX_CBID_CORE_MarkA = 2,
  NVTX_CBID_CORE_MarkW = 3,
  NVTX_CBID_CORE_RangeStartEx = 4,
  NVTX_CBID_CORE_RangeStartA = 5,
  NVTX_CBID_CORE_RangeStartW = 6,
  NVTX_CBID_CORE_RangeEnd = 7,
  NVTX_CBID_CORE_RangePushEx = 8,
  NVTX_CBID_CORE_RangePushA = 9,
  NVTX_CBID_CORE_RangePushW = 10,
  NVTX_CBID_CORE_RangePop = 11,
  NVTX_CBID_CORE_NameCategoryA = 12,
  NVTX_CBID_CORE_NameCategoryW = 13,
  NVTX_CBID_CORE_NameOsThreadA = 14,
  NVTX_CBID_CORE_NameOsThreadW = 15,
  NVTX_CBID_CORE_SIZE,
  NVTX_CBID_CORE_FORCE_INT = 0x7fffffff
} NvtxCallbackIdCore;

// Slots of the CORE2 module: the domain calls, string registration and nvtxInitialize.
typedef enum NvtxCallbackIdCore2 {
  NVTX_CBID_CORE2_INVALID = 0,
  NVTX_CBID_CORE2_DomainMarkEx = 1,
  NVTX_CBID_CORE2_DomainRangeStartEx = 2,
  NVTX_CBID_CORE2_DomainRangeEnd = 3,
  NVTX_CBID_CORE2_DomainRangePushEx = 4,
  NVTX_CBID_CORE2_DomainRangePop = 5,
  NVTX_CBID_CORE2_DomainResourceCreate = 6,
  NVTX_CBID_CORE2_DomainResourceDestroy = 7,
  NVTX_CBID_CORE2_DomainNameCategoryA = 8,
  NVTX_CBID_CORE2_DomainNameCategoryW = 9,
  NVTX_CBID_CORE2_DomainRegisterStringA = 10,
  NVTX_CBID_CORE2_DomainRegisterStringW = 11,
  NVTX_CBID_CORE2_DomainCreateA = 12,
  NVTX_CBID_CORE2_DomainCreateW = 13,
  NVTX_CBID_CORE2_DomainDestroy = 14,
  NVTX_CBID_CORE2_Initialize = 15,
  NVTX_CBID_CORE2_SIZE,
  NVTX_CBID_CORE2_FORCE_INT = 0x7fffffff
} NvtxCallbackIdCore2;

// Export table ids a tool may ask the client for.
#define NVTX_ETID_CALLBACKS 1
#define NVTX_ETID_RESERVED0 2
#define NVTX_ETID_VERSIONINFO 3

// Export table NVTX_ETID_CALLBACKS. GetModuleFunctionTable returns non-zero and fills
// `out_table` (and its length, `out_size`) for a module the client has.
typedef struct NvtxExportTableCallbacks {
  size_t struct_size;
  int (*GetModuleFunctionTable)(NvtxCallbackModule module, NvtxFunctionTable* out_table,
                                unsigned int* out_size);
} NvtxExportTableCallbacks;

// Export table NVTX_ETID_VERSIONINFO: the client's NVTX version.
typedef struct NvtxExportTableVersionInfo {
  size_t struct_size;
  uint32_t version;
  uint32_t reserved0;
  void (*SetInjectionNvtxVersion)(uint32_t version);
} NvtxExportTableVersionInfo;

// What the client passes to InitializeInjectionNvtx2: returns an export table or NULL.
typedef const void* (*NvtxGetExportTableFunc_t)(uint32_t export_table_id);
// The tool's entry point, found by dlsym() in the library NVTX_INJECTION64_PATH names. It
// returns non-zero when it took over; 0 turns every NVTX call of that client into a no-op.
typedef int (*NvtxInitializeInjectionNvtxFunc_t)(NvtxGetExportTableFunc_t get_export_table);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // GSYS_CAPTURE_NVTX_NVTX_ABI_H_
