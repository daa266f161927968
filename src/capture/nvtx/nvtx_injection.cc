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
#include "capture/nvtx/nvtx_text.h"
#include "format/record.h"

namespace gsys::capture {
namespace {

// Every entry point accepts NULL and invalid arguments and then does what NVTX's no-op
// implementation does, or records the event unnamed (docs/nvtx.md, "Invalid arguments"):
//  - NULL message (A, W, or ASCII/UNICODE/REGISTERED in attributes), NULL attributes, unknown
//    message type: an unnamed event; pushes still push (the pops stay balanced).
//  - NULL or never-returned domain handle: the default domain.
//  - NULL name for a category, thread, domain or registered string: nothing recorded; the
//    creating calls return NULL, as the no-op does.
//  - pop with nothing pushed: -1, no record; end of an id never returned: no record.

// NULL and handles this process never returned are the default domain.
uint32_t DomainId(nvtxDomainHandle_t d) {
  return NvtxRegistryDomainOf(reinterpret_cast<uintptr_t>(d));
}

// A name, cut at the cap on a UTF-8 boundary; `text` is NULL for a NULL name.
struct Name {
  const char* text = nullptr;
  size_t len = 0;
  bool cut = false;
};

Name AsciiName(const char* s) {
  Name n;
  if (s == nullptr) return n;
  n.text = s;
  n.len = NvtxTextLength(s, format::kMaxTextBytes, &n.cut);
  return n;
}

// The wide forms of the naming calls convert into a cap-sized buffer on the stack of these
// rare calls, then take the A path. `Fn` is called with the Name (text NULL for a NULL name).
template <typename Fn>
__attribute__((noinline)) auto WithWideName(const wchar_t* s, Fn fn) {
  char buf[format::kMaxTextBytes + 1];
  Name n;
  if (s != nullptr) {
    n.text = buf;
    n.len = WideToUtf8(s, buf, sizeof(buf), &n.cut);
  }
  return fn(n);
}

// The W shortcuts of events pass the wide text as UNICODE attributes: one conversion path.
nvtxEventAttributes_t WideAttr(const wchar_t* m) {
  nvtxEventAttributes_t a;
  std::memset(&a, 0, sizeof(a));
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_UNICODE;
  a.message.unicode = m;
  return a;
}

void NameCategory(uint32_t domain, uint32_t category, const Name& n) {
  if (n.text != nullptr) NvtxRegistryCategory(domain, category, n.text, n.len, n.cut);
}
void NameThread(uint32_t tid, const Name& n) {
  if (n.text != nullptr) NvtxNameThread(tid, n.text, n.len, n.cut);
}
nvtxStringHandle_t RegisterString(uint32_t domain, const Name& n) {
  if (n.text == nullptr) return nullptr;
  uint64_t id = NvtxRegistryString(domain, n.text, n.len, n.cut);
  return reinterpret_cast<nvtxStringHandle_t>(static_cast<uintptr_t>(id));
}
nvtxDomainHandle_t CreateDomain(const Name& n) {
  if (n.text == nullptr) return nullptr;
  uint32_t id = NvtxRegistryDomain(n.text, n.len, n.cut);
  return reinterpret_cast<nvtxDomainHandle_t>(static_cast<uintptr_t>(id));
}

// --- CORE ---------------------------------------------------------------------------------
void MarkEx(const nvtxEventAttributes_t* a) { NvtxMark(0, a, nullptr); }
void MarkA(const char* m) { NvtxMark(0, nullptr, m); }
void MarkW(const wchar_t* m) {
  nvtxEventAttributes_t a = WideAttr(m);
  NvtxMark(0, &a, nullptr);
}
nvtxRangeId_t RangeStartEx(const nvtxEventAttributes_t* a) { return NvtxStart(0, a, nullptr); }
nvtxRangeId_t RangeStartA(const char* m) { return NvtxStart(0, nullptr, m); }
nvtxRangeId_t RangeStartW(const wchar_t* m) {
  nvtxEventAttributes_t a = WideAttr(m);
  return NvtxStart(0, &a, nullptr);
}
void RangeEnd(nvtxRangeId_t id) { NvtxEnd(0, id); }
int RangePushEx(const nvtxEventAttributes_t* a) { return NvtxPush(0, a, nullptr); }
int RangePushA(const char* m) { return NvtxPush(0, nullptr, m); }
int RangePushW(const wchar_t* m) {
  nvtxEventAttributes_t a = WideAttr(m);
  return NvtxPush(0, &a, nullptr);
}
int RangePop() { return NvtxPop(0); }
void NameCategoryA(uint32_t category, const char* name) {
  NameCategory(0, category, AsciiName(name));
}
void NameCategoryW(uint32_t category, const wchar_t* name) {
  WithWideName(name, [category](const Name& n) { NameCategory(0, category, n); });
}
void NameOsThreadA(uint32_t tid, const char* name) { NameThread(tid, AsciiName(name)); }
void NameOsThreadW(uint32_t tid, const wchar_t* name) {
  WithWideName(name, [tid](const Name& n) { NameThread(tid, n); });
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
// Resources are not recorded. NULL attributes get NULL, as from the no-op; otherwise one
// dummy handle, which the destroy ignores.
nvtxResourceHandle_t DomainResourceCreate(nvtxDomainHandle_t, nvtxResourceAttributes_t* a) {
  static int dummy;
  return a == nullptr ? nullptr : reinterpret_cast<nvtxResourceHandle_t>(&dummy);
}
void DomainResourceDestroy(nvtxResourceHandle_t) {}
void DomainNameCategoryA(nvtxDomainHandle_t d, uint32_t category, const char* name) {
  NameCategory(DomainId(d), category, AsciiName(name));
}
void DomainNameCategoryW(nvtxDomainHandle_t d, uint32_t category, const wchar_t* name) {
  uint32_t domain = DomainId(d);
  WithWideName(name, [domain, category](const Name& n) { NameCategory(domain, category, n); });
}
nvtxStringHandle_t DomainRegisterStringA(nvtxDomainHandle_t d, const char* s) {
  return RegisterString(DomainId(d), AsciiName(s));
}
nvtxStringHandle_t DomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t* s) {
  uint32_t domain = DomainId(d);
  return WithWideName(s, [domain](const Name& n) { return RegisterString(domain, n); });
}
nvtxDomainHandle_t DomainCreateA(const char* name) { return CreateDomain(AsciiName(name)); }
nvtxDomainHandle_t DomainCreateW(const wchar_t* name) {
  return WithWideName(name, [](const Name& n) { return CreateDomain(n); });
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
  void OnForkChild() override {
    NvtxRegistryForkDone();
    NvtxTextForkChild();
  }
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
