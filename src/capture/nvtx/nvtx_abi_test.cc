// SPDX-License-Identifier: Apache-2.0
// nvtx_abi.h against NVIDIA's own NVTX v3 headers, where they are installed (this file is only
// built then): every layout, module and slot number gsys relies on must agree, or the injected
// library would write an application's NVTX calls into the wrong slots. All checks are at
// compile time; the test case only reports that they held.
#include <gtest/gtest.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

// Take NVIDIA's macro values, then let gsys's header define its own.
constexpr int kTheirVersion = NVTX_VERSION;
constexpr int kTheirEtidCallbacks = NVTX_ETID_CALLBACKS;
constexpr int kTheirEtidVersionInfo = NVTX_ETID_VERSIONINFO;
#undef NVTX_VERSION
#undef NVTX_EVENT_ATTRIB_STRUCT_SIZE
#undef NVTX_ETID_CALLBACKS
#undef NVTX_ETID_RESERVED0
#undef NVTX_ETID_VERSIONINFO

namespace ours {
#include "capture/nvtx/nvtx_abi.h"
}  // namespace ours

namespace {

static_assert(kTheirVersion == NVTX_VERSION);
static_assert(kTheirEtidCallbacks == NVTX_ETID_CALLBACKS);
static_assert(kTheirEtidVersionInfo == NVTX_ETID_VERSIONINFO);
static_assert(NVTX_EVENT_ATTRIB_STRUCT_SIZE == sizeof(::nvtxEventAttributes_t));

#define GSYS_SAME_LAYOUT(type, field)                                                       \
  static_assert(offsetof(ours::type, field) == offsetof(::type, field), #type "::" #field); \
  static_assert(sizeof(ours::type::field) == sizeof(::type::field), #type "::" #field)

static_assert(sizeof(ours::nvtxEventAttributes_t) == sizeof(::nvtxEventAttributes_t));
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, version);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, size);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, category);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, colorType);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, color);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, payloadType);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, reserved0);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, payload);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, messageType);
GSYS_SAME_LAYOUT(nvtxEventAttributes_t, message);
static_assert(sizeof(ours::nvtxResourceAttributes_t) == sizeof(::nvtxResourceAttributes_t));
GSYS_SAME_LAYOUT(nvtxResourceAttributes_t, identifierType);
GSYS_SAME_LAYOUT(nvtxResourceAttributes_t, identifier);
GSYS_SAME_LAYOUT(nvtxResourceAttributes_t, messageType);
GSYS_SAME_LAYOUT(nvtxResourceAttributes_t, message);
GSYS_SAME_LAYOUT(NvtxExportTableCallbacks, struct_size);
GSYS_SAME_LAYOUT(NvtxExportTableCallbacks, GetModuleFunctionTable);
GSYS_SAME_LAYOUT(NvtxExportTableVersionInfo, version);
GSYS_SAME_LAYOUT(NvtxExportTableVersionInfo, SetInjectionNvtxVersion);
static_assert(sizeof(ours::nvtxRangeId_t) == sizeof(::nvtxRangeId_t));

#define GSYS_SAME_VALUE(name) \
  static_assert(static_cast<long>(ours::name) == static_cast<long>(::name), #name)
GSYS_SAME_VALUE(NVTX_COLOR_ARGB);
GSYS_SAME_VALUE(NVTX_MESSAGE_TYPE_ASCII);
GSYS_SAME_VALUE(NVTX_MESSAGE_TYPE_UNICODE);
GSYS_SAME_VALUE(NVTX_MESSAGE_TYPE_REGISTERED);
GSYS_SAME_VALUE(NVTX_PAYLOAD_TYPE_UNSIGNED_INT64);
GSYS_SAME_VALUE(NVTX_PAYLOAD_TYPE_INT64);
GSYS_SAME_VALUE(NVTX_PAYLOAD_TYPE_DOUBLE);
GSYS_SAME_VALUE(NVTX_PAYLOAD_TYPE_UNSIGNED_INT32);
GSYS_SAME_VALUE(NVTX_PAYLOAD_TYPE_INT32);
GSYS_SAME_VALUE(NVTX_PAYLOAD_TYPE_FLOAT);
GSYS_SAME_VALUE(NVTX_CB_MODULE_CORE);
GSYS_SAME_VALUE(NVTX_CB_MODULE_CUDA);
GSYS_SAME_VALUE(NVTX_CB_MODULE_OPENCL);
GSYS_SAME_VALUE(NVTX_CB_MODULE_CUDART);
GSYS_SAME_VALUE(NVTX_CB_MODULE_CORE2);
GSYS_SAME_VALUE(NVTX_CB_MODULE_SYNC);
GSYS_SAME_VALUE(NVTX_CBID_CORE_MarkEx);
GSYS_SAME_VALUE(NVTX_CBID_CORE_MarkA);
GSYS_SAME_VALUE(NVTX_CBID_CORE_MarkW);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangeStartEx);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangeStartA);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangeStartW);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangeEnd);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangePushEx);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangePushA);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangePushW);
GSYS_SAME_VALUE(NVTX_CBID_CORE_RangePop);
GSYS_SAME_VALUE(NVTX_CBID_CORE_NameCategoryA);
GSYS_SAME_VALUE(NVTX_CBID_CORE_NameCategoryW);
GSYS_SAME_VALUE(NVTX_CBID_CORE_NameOsThreadA);
GSYS_SAME_VALUE(NVTX_CBID_CORE_NameOsThreadW);
GSYS_SAME_VALUE(NVTX_CBID_CORE_SIZE);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainMarkEx);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainRangeStartEx);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainRangeEnd);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainRangePushEx);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainRangePop);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainResourceCreate);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainResourceDestroy);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainNameCategoryA);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainNameCategoryW);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainRegisterStringA);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainRegisterStringW);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainCreateA);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainCreateW);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_DomainDestroy);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_Initialize);
GSYS_SAME_VALUE(NVTX_CBID_CORE2_SIZE);

TEST(NvtxAbiTest, MatchesNvidiaHeaders) { SUCCEED() << "checked at compile time"; }

}  // namespace
