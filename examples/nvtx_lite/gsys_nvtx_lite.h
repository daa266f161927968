// SPDX-License-Identifier: Apache-2.0
// A minimal NVTX v3 *client*, written for gsys: the few NVTX calls the demo workload and the
// install tests make, for machines without NVIDIA's NVTX headers (a plain Debian builder).
// It speaks the same injection protocol as NVIDIA's header-only client (capture/nvtx/nvtx_abi.h):
// on the first call it dlopen()s NVTX_INJECTION64_PATH, hands the tool an export table with
// CORE and CORE2 function tables, and from then on calls whatever the tool stored there. With
// no tool, or a tool that declines, every call does nothing. Real programs should use NVIDIA's
// headers; this file exists so that the programs gsys ships and tests do not need them.
//
// Each translation unit that includes it gets its own copy (all functions are static), as
// with NVIDIA's client, which also initializes once per linkage unit.
#ifndef GSYS_EXAMPLES_NVTX_LITE_GSYS_NVTX_LITE_H_
#define GSYS_EXAMPLES_NVTX_LITE_GSYS_NVTX_LITE_H_

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include "capture/nvtx/nvtx_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

// The slots the tool fills, and the arrays of pointers to them that it is given.
static NvtxFunctionPointer gsys_nvtx_lite_core[NVTX_CBID_CORE_SIZE];
static NvtxFunctionPointer gsys_nvtx_lite_core2[NVTX_CBID_CORE2_SIZE];
static NvtxFunctionPointer* gsys_nvtx_lite_core_ptrs[NVTX_CBID_CORE_SIZE];
static NvtxFunctionPointer* gsys_nvtx_lite_core2_ptrs[NVTX_CBID_CORE2_SIZE];
static pthread_once_t gsys_nvtx_lite_once = PTHREAD_ONCE_INIT;

static int gsys_nvtx_lite_module_table(NvtxCallbackModule module, NvtxFunctionTable* out_table,
                                       unsigned int* out_size) {
  unsigned int i;
  if (out_table == NULL || out_size == NULL) return 0;
  if (module == NVTX_CB_MODULE_CORE) {
    for (i = 1; i < NVTX_CBID_CORE_SIZE; ++i) gsys_nvtx_lite_core_ptrs[i] = &gsys_nvtx_lite_core[i];
    *out_table = gsys_nvtx_lite_core_ptrs;
    *out_size = NVTX_CBID_CORE_SIZE;
    return 1;
  }
  if (module == NVTX_CB_MODULE_CORE2) {
    for (i = 1; i < NVTX_CBID_CORE2_SIZE; ++i) {
      gsys_nvtx_lite_core2_ptrs[i] = &gsys_nvtx_lite_core2[i];
    }
    *out_table = gsys_nvtx_lite_core2_ptrs;
    *out_size = NVTX_CBID_CORE2_SIZE;
    return 1;
  }
  return 0;  // no CUDA, OpenCL or sync module here
}

static const NvtxExportTableCallbacks gsys_nvtx_lite_callbacks = {sizeof(NvtxExportTableCallbacks),
                                                                  gsys_nvtx_lite_module_table};

static const void* gsys_nvtx_lite_export_table(uint32_t id) {
  return id == NVTX_ETID_CALLBACKS ? &gsys_nvtx_lite_callbacks : NULL;
}

static void gsys_nvtx_lite_load(void) {
  const char* path = getenv("NVTX_INJECTION64_PATH");
  void* lib;
  NvtxInitializeInjectionNvtxFunc_t init;
  unsigned int i;
  if (path == NULL || path[0] == '\0') return;
  lib = dlopen(path, RTLD_LAZY);
  if (lib == NULL) return;
  init =
      GSYS_NVTX_FN_CAST(NvtxInitializeInjectionNvtxFunc_t, dlsym(lib, "InitializeInjectionNvtx2"));
  if (init != NULL && init(gsys_nvtx_lite_export_table) != 0) return;
  // Declined: whatever it stored is not to be called.
  for (i = 0; i < NVTX_CBID_CORE_SIZE; ++i) gsys_nvtx_lite_core[i] = NULL;
  for (i = 0; i < NVTX_CBID_CORE2_SIZE; ++i) gsys_nvtx_lite_core2[i] = NULL;
}

// The slot `id` of `table` as a function of type `type`, NULL while the tool left it empty.
#define GSYS_NVTX_LITE_SLOT(table, id, type) \
  (pthread_once(&gsys_nvtx_lite_once, gsys_nvtx_lite_load), GSYS_NVTX_FN_CAST(type, (table)[id]))

static inline void nvtxMarkA(const char* message) {
  typedef void (*fn_t)(const char*);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core, NVTX_CBID_CORE_MarkA, fn_t);
  if (fn != NULL) fn(message);
}
static inline nvtxRangeId_t nvtxRangeStartA(const char* message) {
  typedef nvtxRangeId_t (*fn_t)(const char*);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core, NVTX_CBID_CORE_RangeStartA, fn_t);
  return fn != NULL ? fn(message) : 0;
}
static inline void nvtxRangeEnd(nvtxRangeId_t id) {
  typedef void (*fn_t)(nvtxRangeId_t);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core, NVTX_CBID_CORE_RangeEnd, fn_t);
  if (fn != NULL) fn(id);
}
// Without a tool, push and pop return -2, NVTX's "not tracked" value.
static inline int nvtxRangePushA(const char* message) {
  typedef int (*fn_t)(const char*);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core, NVTX_CBID_CORE_RangePushA, fn_t);
  return fn != NULL ? fn(message) : -2;
}
static inline int nvtxRangePop(void) {
  typedef int (*fn_t)(void);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core, NVTX_CBID_CORE_RangePop, fn_t);
  return fn != NULL ? fn() : -2;
}
static inline void nvtxNameOsThreadA(uint32_t tid, const char* name) {
  typedef void (*fn_t)(uint32_t, const char*);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core, NVTX_CBID_CORE_NameOsThreadA, fn_t);
  if (fn != NULL) fn(tid, name);
}
static inline nvtxDomainHandle_t nvtxDomainCreateA(const char* name) {
  typedef nvtxDomainHandle_t (*fn_t)(const char*);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core2, NVTX_CBID_CORE2_DomainCreateA, fn_t);
  return fn != NULL ? fn(name) : NULL;
}
static inline int nvtxDomainRangePushEx(nvtxDomainHandle_t domain,
                                        const nvtxEventAttributes_t* attr) {
  typedef int (*fn_t)(nvtxDomainHandle_t, const nvtxEventAttributes_t*);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core2, NVTX_CBID_CORE2_DomainRangePushEx, fn_t);
  return fn != NULL ? fn(domain, attr) : -2;
}
static inline int nvtxDomainRangePop(nvtxDomainHandle_t domain) {
  typedef int (*fn_t)(nvtxDomainHandle_t);
  fn_t fn = GSYS_NVTX_LITE_SLOT(gsys_nvtx_lite_core2, NVTX_CBID_CORE2_DomainRangePop, fn_t);
  return fn != NULL ? fn(domain) : -2;
}

#undef GSYS_NVTX_LITE_SLOT

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // GSYS_EXAMPLES_NVTX_LITE_GSYS_NVTX_LITE_H_
