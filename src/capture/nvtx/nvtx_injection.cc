// SPDX-License-Identifier: Apache-2.0
// NVTX v3 injection: InitializeInjectionNvtx2 fills the CORE and CORE2 export tables with
// gsys callbacks. NVTX calls it once per linkage unit that uses NVTX (executable, libtorch,
// NCCL, ...), so it is idempotent and all state is process-wide.
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <new>

#include "capture/capture_domain.h"
#include "capture/entry/context.h"
#include "capture/nvtx/nvtx_events.h"
#include "capture/nvtx/nvtx_registry.h"

namespace gsys::capture {
namespace {

uint32_t DomainId(nvtxDomainHandle_t d) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(d));
}

// --- CORE ---------------------------------------------------------------------------------
void MarkEx(const nvtxEventAttributes_t* a) { NvtxMark(0, a, nullptr); }
void MarkA(const char* m) { NvtxMark(0, nullptr, m); }
void MarkW(const wchar_t* m) {
  char buf[512];
  WideToUtf8(m, buf, sizeof(buf));
  NvtxMark(0, nullptr, buf);
}
nvtxRangeId_t RangeStartEx(const nvtxEventAttributes_t* a) { return NvtxStart(0, a, nullptr); }
nvtxRangeId_t RangeStartA(const char* m) { return NvtxStart(0, nullptr, m); }
nvtxRangeId_t RangeStartW(const wchar_t* m) {
  char buf[512];
  WideToUtf8(m, buf, sizeof(buf));
  return NvtxStart(0, nullptr, buf);
}
void RangeEnd(nvtxRangeId_t id) { NvtxEnd(0, id); }
int RangePushEx(const nvtxEventAttributes_t* a) { return NvtxPush(0, a, nullptr); }
int RangePushA(const char* m) { return NvtxPush(0, nullptr, m); }
int RangePushW(const wchar_t* m) {
  char buf[512];
  WideToUtf8(m, buf, sizeof(buf));
  return NvtxPush(0, nullptr, buf);
}
int RangePop() { return NvtxPop(0); }
void NameCategoryA(uint32_t category, const char* name) {
  NvtxRegistryCategory(0, category, name, strnlen(name, 4096));
}
void NameCategoryW(uint32_t category, const wchar_t* name) {
  char buf[512];
  WideToUtf8(name, buf, sizeof(buf));
  NameCategoryA(category, buf);
}
void NameOsThreadA(uint32_t tid, const char* name) { NvtxNameThread(tid, name); }
void NameOsThreadW(uint32_t tid, const wchar_t* name) {
  char buf[512];
  WideToUtf8(name, buf, sizeof(buf));
  NvtxNameThread(tid, buf);
}

// --- CORE2 (domains) ------------------------------------------------------------------------
void DomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  NvtxMark(DomainId(d), a, nullptr);
}
nvtxRangeId_t DomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  return NvtxStart(DomainId(d), a, nullptr);
}
void DomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) { NvtxEnd(DomainId(d), id); }
int DomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  return NvtxPush(DomainId(d), a, nullptr);
}
int DomainRangePop(nvtxDomainHandle_t d) { return NvtxPop(DomainId(d)); }
nvtxResourceHandle_t DomainResourceCreate(nvtxDomainHandle_t, nvtxResourceAttributes_t*) {
  static int dummy;
  return reinterpret_cast<nvtxResourceHandle_t>(&dummy);
}
void DomainResourceDestroy(nvtxResourceHandle_t) {}
void DomainNameCategoryA(nvtxDomainHandle_t d, uint32_t category, const char* name) {
  NvtxRegistryCategory(DomainId(d), category, name, strnlen(name, 4096));
}
void DomainNameCategoryW(nvtxDomainHandle_t d, uint32_t category, const wchar_t* name) {
  char buf[512];
  WideToUtf8(name, buf, sizeof(buf));
  DomainNameCategoryA(d, category, buf);
}
nvtxStringHandle_t DomainRegisterStringA(nvtxDomainHandle_t d, const char* s) {
  uint64_t id = NvtxRegistryString(DomainId(d), s, strnlen(s, 4096));
  return reinterpret_cast<nvtxStringHandle_t>(static_cast<uintptr_t>(id));
}
nvtxStringHandle_t DomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t* s) {
  char buf[512];
  WideToUtf8(s, buf, sizeof(buf));
  return DomainRegisterStringA(d, buf);
}
nvtxDomainHandle_t DomainCreateA(const char* name) {
  uint32_t id = NvtxRegistryDomain(name, strnlen(name, 4096));
  return reinterpret_cast<nvtxDomainHandle_t>(static_cast<uintptr_t>(id));
}
nvtxDomainHandle_t DomainCreateW(const wchar_t* name) {
  char buf[512];
  WideToUtf8(name, buf, sizeof(buf));
  return DomainCreateA(buf);
}
void DomainDestroy(nvtxDomainHandle_t) {}
void Initialize(const void*) {}

template <typename Fn>
void Set(NvtxFunctionTable table, unsigned size, unsigned index, Fn fn) {
  if (index < size && table[index] != nullptr) {
    *table[index] = reinterpret_cast<NvtxFunctionPointer>(fn);
  }
}

int FillTables(NvtxGetExportTableFunc_t get_table) {
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr) return 0;
  NvtxFunctionTable t = nullptr;
  unsigned n = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) || t == nullptr) return 0;
  Set(t, n, NVTX_CBID_CORE_MarkEx, MarkEx);
  Set(t, n, NVTX_CBID_CORE_MarkA, MarkA);
  Set(t, n, NVTX_CBID_CORE_MarkW, MarkW);
  Set(t, n, NVTX_CBID_CORE_RangeStartEx, RangeStartEx);
  Set(t, n, NVTX_CBID_CORE_RangeStartA, RangeStartA);
  Set(t, n, NVTX_CBID_CORE_RangeStartW, RangeStartW);
  Set(t, n, NVTX_CBID_CORE_RangeEnd, RangeEnd);
  Set(t, n, NVTX_CBID_CORE_RangePushEx, RangePushEx);
  Set(t, n, NVTX_CBID_CORE_RangePushA, RangePushA);
  Set(t, n, NVTX_CBID_CORE_RangePushW, RangePushW);
  Set(t, n, NVTX_CBID_CORE_RangePop, RangePop);
  Set(t, n, NVTX_CBID_CORE_NameCategoryA, NameCategoryA);
  Set(t, n, NVTX_CBID_CORE_NameCategoryW, NameCategoryW);
  Set(t, n, NVTX_CBID_CORE_NameOsThreadA, NameOsThreadA);
  Set(t, n, NVTX_CBID_CORE_NameOsThreadW, NameOsThreadW);
  t = nullptr;
  n = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) && t != nullptr) {
    Set(t, n, NVTX_CBID_CORE2_DomainMarkEx, DomainMarkEx);
    Set(t, n, NVTX_CBID_CORE2_DomainRangeStartEx, DomainRangeStartEx);
    Set(t, n, NVTX_CBID_CORE2_DomainRangeEnd, DomainRangeEnd);
    Set(t, n, NVTX_CBID_CORE2_DomainRangePushEx, DomainRangePushEx);
    Set(t, n, NVTX_CBID_CORE2_DomainRangePop, DomainRangePop);
    Set(t, n, NVTX_CBID_CORE2_DomainResourceCreate, DomainResourceCreate);
    Set(t, n, NVTX_CBID_CORE2_DomainResourceDestroy, DomainResourceDestroy);
    Set(t, n, NVTX_CBID_CORE2_DomainNameCategoryA, DomainNameCategoryA);
    Set(t, n, NVTX_CBID_CORE2_DomainNameCategoryW, DomainNameCategoryW);
    Set(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, DomainRegisterStringA);
    Set(t, n, NVTX_CBID_CORE2_DomainRegisterStringW, DomainRegisterStringW);
    Set(t, n, NVTX_CBID_CORE2_DomainCreateA, DomainCreateA);
    Set(t, n, NVTX_CBID_CORE2_DomainCreateW, DomainCreateW);
    Set(t, n, NVTX_CBID_CORE2_DomainDestroy, DomainDestroy);
    Set(t, n, NVTX_CBID_CORE2_Initialize, Initialize);
  }
  return 1;
}

class NvtxDomain final : public CaptureDomain {
 public:
  const char* Name() const override { return "nvtx"; }
  bool Enabled(const CaptureConfig& c) const override { return c.trace_nvtx; }
  void Start(const CaptureConfig& c) override {
    NvtxRegistryInit();
    if (c.nvtx_trigger) NvtxArmTrigger();
  }
  void OnForkPrepare() override { NvtxRegistryForkPrepare(); }
  void OnForkParent() override { NvtxRegistryForkDone(); }
  void OnForkChild() override { NvtxRegistryForkDone(); }
};

}  // namespace

CaptureDomain* NvtxCaptureDomain() {
  // Never destroyed: the library destructor still flushes through it.
  alignas(NvtxDomain) static unsigned char storage[sizeof(NvtxDomain)];
  static CaptureDomain* domain = new (storage) NvtxDomain();
  return domain;
}

}  // namespace gsys::capture

// The NVTX loader looks this symbol up after dlopen(NVTX_INJECTION64_PATH). Returning 0 makes
// NVTX turn every call into a no-op (capture inactive or nvtx not traced).
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_table) {
  using namespace gsys::capture;
  if (!EnsureInitialized() || !CaptureContext().config.trace_nvtx) return 0;
  return FillTables(get_table);
}
