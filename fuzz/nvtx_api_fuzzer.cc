// SPDX-License-Identifier: Apache-2.0
// The injected NVTX API (capture/nvtx) under arbitrary calls: the input is decoded into up to
// 256 NVTX calls with arbitrary, NULL and garbage arguments, made through the function table
// InitializeInjectionNvtx2 fills, exactly as NVTX's inline implementation calls them.
//
// Pointers the program owns stay valid (NVTX cannot survive a garbage string pointer, nor can
// its no-op... which never reads it; docs/nvtx.md), everything else is garbage: `size` and
// `version` of attribute structs (the struct is allocated with exactly `size` bytes, so ASan
// catches any read past it), message/payload/color types, message bits of unknown types,
// domain/string/range handles never returned, string bytes (invalid UTF-8, no terminator
// within the cap), wide characters that are no code points.
//
// Checked on every input: no crash or sanitizer report; every record the calls emitted is well
// formed and its text within format::kMaxTextBytes; a domain name gives the same handle each
// time; NULL names give NULL handles; pops of nothing return -1; the UTF-8 cut keeps the
// longest prefix that does not split a character, and wide strings convert to valid UTF-8.
//
// The capture library's sink is linked, not started: the calling thread records into a ring
// of the fuzzer's own, drained and decoded after each call.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "capture/entry/context.h"
#include "capture/nvtx/nvtx_events.h"  // NVTX's types (capture/nvtx/nvtx_abi.h)
#include "capture/nvtx/nvtx_registry.h"
#include "capture/nvtx/nvtx_text.h"
#include "capture/sink/sink.h"
#include "capture/sink/thread_buffer.h"
#include "format/record.h"
#include "format/stream_reader.h"

extern "C" int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table);

// What capture/entry/init.cc provides in the library (not linked here: it starts everything).
namespace gsys::capture {
namespace {
Context g_fuzz_context;
}  // namespace
Context& CaptureContext() { return g_fuzz_context; }
bool EnsureInitialized() { return true; }
}  // namespace gsys::capture

namespace {

using namespace gsys;
using capture::ThreadBuffer;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "nvtx_api_fuzzer: %s\n", what);
  std::abort();
}

// --- the export table NVTX would hand the injection -------------------------------------------

NvtxFunctionPointer g_core[NVTX_CBID_CORE_SIZE];
NvtxFunctionPointer* g_core_slots[NVTX_CBID_CORE_SIZE];
NvtxFunctionPointer g_core2[NVTX_CBID_CORE2_SIZE];
NvtxFunctionPointer* g_core2_slots[NVTX_CBID_CORE2_SIZE];

int GetModuleFunctionTable(NvtxCallbackModule module, NvtxFunctionTable* table,
                           unsigned int* size) {
  if (module == NVTX_CB_MODULE_CORE) {
    *table = g_core_slots;
    *size = NVTX_CBID_CORE_SIZE;
    return 1;
  }
  if (module == NVTX_CB_MODULE_CORE2) {
    *table = g_core2_slots;
    *size = NVTX_CBID_CORE2_SIZE;
    return 1;
  }
  return 0;
}

const NvtxExportTableCallbacks g_callbacks{sizeof(NvtxExportTableCallbacks),
                                           GetModuleFunctionTable};

const void* GetExportTable(uint32_t id) {
  return id == NVTX_ETID_CALLBACKS ? &g_callbacks : nullptr;
}

template <typename Fn>
Fn Core(int id) {
  return reinterpret_cast<Fn>(g_core[id]);
}
template <typename Fn>
Fn Core2(int id) {
  return reinterpret_cast<Fn>(g_core2[id]);
}

// --- the recording ring --------------------------------------------------------------------

constexpr size_t kRingBytes = 1u << 20;

ThreadBuffer* Ring() {
  static std::vector<uint8_t>* memory = new std::vector<uint8_t>(kRingBytes);
  static ThreadBuffer* ring = new ThreadBuffer(memory->data(), kRingBytes);
  return ring;
}

void CheckText(size_t len) {
  if (len > format::kMaxTextBytes) Fail("record text over the cap");
}

// Drains the ring and checks every record.
void DrainAndCheck() {
  static std::vector<uint8_t>* out = new std::vector<uint8_t>(kRingBytes);
  uint32_t records = 0;
  size_t n = Ring()->Drain(out->data(), out->size(), &records);
  format::RecordCursor cursor(out->data(), n);
  format::RecordView r;
  while (cursor.Next(&r)) {
    switch (r.kind) {
      case format::RecordKind::kNvtxPush:
      case format::RecordKind::kNvtxStart:
      case format::RecordKind::kNvtxMark: {
        format::NvtxEventBody b;
        std::string_view text;
        if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.text_len, &text)) Fail("bad event record");
        CheckText(b.text_len);
        break;
      }
      case format::RecordKind::kNvtxDomainCreate:
      case format::RecordKind::kNvtxRegisterString:
      case format::RecordKind::kNvtxNameCategory: {
        format::NvtxNameBody b;
        std::string_view text;
        if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.text_len, &text)) Fail("bad name record");
        CheckText(b.text_len);
        break;
      }
      case format::RecordKind::kThreadName: {
        format::ThreadNameBody b;
        std::string_view text;
        if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.name_len, &text)) Fail("bad thread name");
        CheckText(b.name_len);
        break;
      }
      default:
        break;
    }
  }
  if (cursor.malformed()) Fail("malformed record stream");
}

// --- UTF-8 oracles -------------------------------------------------------------------------

// Length of the valid UTF-8 prefix of s[0, n) (RFC 3629: no overlongs, surrogates, > U+10FFFF).
size_t ValidPrefix(const unsigned char* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    size_t k;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      k = 2, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      k = 3, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      k = 4, cp = c & 0x07;
    } else {
      return i;
    }
    if (i + k > n) return i;
    for (size_t j = 1; j < k; ++j) {
      if ((s[i + j] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (s[i + j] & 0x3F);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return i;
    }
    i += k;
  }
  return n;
}

void CheckCut(const std::string& s) {
  bool cut = false;
  size_t n = capture::NvtxTextLength(s.c_str(), format::kMaxTextBytes, &cut);
  size_t len = std::strlen(s.c_str());
  if (cut != (len > format::kMaxTextBytes)) Fail("cut flag");
  if (!cut && n != len) Fail("uncut length");
  if (cut && (n > format::kMaxTextBytes || n + 3 < format::kMaxTextBytes)) Fail("cut length");
  // A string valid up to the cap stays valid after the cut (no split character).
  const auto* u = reinterpret_cast<const unsigned char*>(s.c_str());
  size_t valid = ValidPrefix(u, std::min(len, format::kMaxTextBytes + 4));
  if (valid >= n && ValidPrefix(u, n) != n) Fail("cut split a character");
  // ...and keeps every whole character that fits.
  if (cut && valid >= format::kMaxTextBytes && ValidPrefix(u, n) == n) {
    size_t next = n;
    if (next < len) {
      unsigned char c = u[next];
      size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (next + k <= format::kMaxTextBytes && ValidPrefix(u, next + k) == next + k) {
        Fail("cut dropped a character that fits");
      }
    }
  }
}

void CheckWide(const std::vector<wchar_t>& w) {
  char out[format::kMaxTextBytes + 1];
  bool cut = false;
  size_t n = capture::WideToUtf8(w.data(), out, sizeof(out), &cut);
  if (n > format::kMaxTextBytes || out[n] != '\0') Fail("wide length");
  if (ValidPrefix(reinterpret_cast<const unsigned char*>(out), n) != n) {
    Fail("wide conversion is not valid UTF-8");
  }
}

// --- decoding the input into calls ---------------------------------------------------------

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ >= end_; }
  uint8_t Byte() { return p_ < end_ ? *p_++ : 0; }
  uint64_t Bits(size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{Byte()} << (8 * i);
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

struct State {
  std::vector<std::string> strings;  // owned by the "program" for the call's duration
  std::vector<std::vector<wchar_t>> wides;
  std::vector<nvtxDomainHandle_t> domains{nullptr};
  std::vector<nvtxStringHandle_t> handles{nullptr};
  std::vector<nvtxRangeId_t> ranges{0};
  std::map<std::string, nvtxDomainHandle_t> domain_by_name;  // by the name as cut
};

// NULL, a long string (over the cap, cut inside a multi-byte character or not), or a short
// one of arbitrary bytes.
const char* String(Input& in, State& st) {
  uint8_t sel = in.Byte();
  if (sel == 0) return nullptr;
  std::string s;
  if (sel < 16) {
    size_t len = format::kMaxTextBytes - 4 + sel;  // around the cap
    s.assign(len, 'x');
    for (size_t i = len - 8; i < len; ++i) s[i] = static_cast<char>(in.Byte() | 1);
  } else {
    size_t len = in.Byte() % 24;
    for (size_t i = 0; i < len; ++i) s.push_back(static_cast<char>(in.Byte() | 1));
  }
  CheckCut(s);
  st.strings.push_back(std::move(s));
  return st.strings.back().c_str();
}

const wchar_t* Wide(Input& in, State& st) {
  uint8_t sel = in.Byte();
  if (sel == 0) return nullptr;
  std::vector<wchar_t> w;
  size_t len = sel < 8 ? format::kMaxTextBytes / 2 + sel : in.Byte() % 12;
  for (size_t i = 0; i < len; ++i) {
    uint32_t c = sel < 8 ? 0xE9u : static_cast<uint32_t>(in.Bits(4));
    if (c == 0) c = 1;
    w.push_back(static_cast<wchar_t>(c));
  }
  w.push_back(0);
  CheckWide(w);
  st.wides.push_back(std::move(w));
  return st.wides.back().data();
}

template <typename T>
T Pick(Input& in, const std::vector<T>& known) {
  uint8_t sel = in.Byte();
  if (sel < 128) return known[sel % known.size()];
  uint64_t bits = in.Bits(sel & 7);  // garbage of 0..7 bytes
  T v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

// An attribute struct of exactly `size` bytes (>= 4, the version and size fields), its fields
// from the input, its message pointing at the program's own strings for ASCII/UNICODE.
const nvtxEventAttributes_t* Attributes(Input& in, State& st, std::vector<uint8_t>& storage) {
  uint8_t sel = in.Byte();
  if (sel == 0) return nullptr;
  nvtxEventAttributes_t a;
  std::memset(&a, 0, sizeof(a));
  a.version = static_cast<uint16_t>(sel & 1 ? NVTX_VERSION : in.Bits(2));
  a.size = static_cast<uint16_t>(sel & 2 ? NVTX_EVENT_ATTRIB_STRUCT_SIZE : in.Byte());
  a.category = static_cast<uint32_t>(in.Bits(sel & 4 ? 4 : 0));
  a.colorType = static_cast<int32_t>(in.Byte() % 4);
  a.color = static_cast<uint32_t>(in.Bits(4));
  a.payloadType = static_cast<int32_t>(in.Byte() % 9) - 1;
  a.payload.ullValue = in.Bits(8);
  a.messageType = static_cast<int32_t>(in.Byte() % 6) - 1;
  switch (a.messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      a.message.ascii = String(in, st);
      break;
    case NVTX_MESSAGE_TYPE_UNICODE:
      a.message.unicode = Wide(in, st);
      break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
      a.message.registered = Pick(in, st.handles);
      break;
    default: {  // never dereferenced: garbage bits
      uint64_t bits = in.Bits(8);
      std::memcpy(&a.message, &bits, sizeof(bits));
    }
  }
  size_t n = std::clamp<size_t>(a.size, 4, sizeof(a));
  storage.assign(reinterpret_cast<const uint8_t*>(&a), reinterpret_cast<const uint8_t*>(&a) + n);
  storage.shrink_to_fit();  // exactly n bytes: a read past `size` is a heap overflow
  return reinterpret_cast<const nvtxEventAttributes_t*>(storage.data());
}

void CreateDomain(State& st, nvtxDomainHandle_t d, const char* name) {
  if (name == nullptr) {
    if (d != nullptr) Fail("a NULL domain name gave a handle");
    return;
  }
  if (d == nullptr) return;  // the registry refused (reentrancy); not expected, not wrong
  bool cut = false;
  std::string key(name, capture::NvtxTextLength(name, format::kMaxTextBytes, &cut));
  auto [it, inserted] = st.domain_by_name.emplace(key, d);
  if (!inserted && it->second != d) Fail("the same domain name gave another handle");
  st.domains.push_back(d);
}

void Call(Input& in, State& st) {
  std::vector<uint8_t> storage;
  uint8_t op = in.Byte() % 33;
  switch (op) {
    case 0:
      Core<void (*)(const nvtxEventAttributes_t*)>(NVTX_CBID_CORE_MarkEx)(
          Attributes(in, st, storage));
      break;
    case 1:
      Core<void (*)(const char*)>(NVTX_CBID_CORE_MarkA)(String(in, st));
      break;
    case 2:
      Core<void (*)(const wchar_t*)>(NVTX_CBID_CORE_MarkW)(Wide(in, st));
      break;
    case 3:
      st.ranges.push_back(Core<nvtxRangeId_t (*)(const nvtxEventAttributes_t*)>(
          NVTX_CBID_CORE_RangeStartEx)(Attributes(in, st, storage)));
      break;
    case 4:
      st.ranges.push_back(
          Core<nvtxRangeId_t (*)(const char*)>(NVTX_CBID_CORE_RangeStartA)(String(in, st)));
      break;
    case 5:
      st.ranges.push_back(
          Core<nvtxRangeId_t (*)(const wchar_t*)>(NVTX_CBID_CORE_RangeStartW)(Wide(in, st)));
      break;
    case 6:
      Core<void (*)(nvtxRangeId_t)>(NVTX_CBID_CORE_RangeEnd)(Pick(in, st.ranges));
      break;
    case 7:
      if (Core<int (*)(const nvtxEventAttributes_t*)>(NVTX_CBID_CORE_RangePushEx)(
              Attributes(in, st, storage)) < 0) {
        Fail("push returned < 0");
      }
      break;
    case 8:
      if (Core<int (*)(const char*)>(NVTX_CBID_CORE_RangePushA)(String(in, st)) < 0) {
        Fail("push returned < 0");
      }
      break;
    case 9:
      if (Core<int (*)(const wchar_t*)>(NVTX_CBID_CORE_RangePushW)(Wide(in, st)) < 0) {
        Fail("push returned < 0");
      }
      break;
    case 10:
      if (Core<int (*)()>(NVTX_CBID_CORE_RangePop)() < -1) Fail("pop returned < -1");
      break;
    case 11:
      Core<void (*)(uint32_t, const char*)>(NVTX_CBID_CORE_NameCategoryA)(
          static_cast<uint32_t>(in.Bits(in.Byte() % 5)), String(in, st));
      break;
    case 12:
      Core<void (*)(uint32_t, const wchar_t*)>(NVTX_CBID_CORE_NameCategoryW)(
          static_cast<uint32_t>(in.Bits(in.Byte() % 5)), Wide(in, st));
      break;
    case 13:
      Core<void (*)(uint32_t, const char*)>(NVTX_CBID_CORE_NameOsThreadA)(
          static_cast<uint32_t>(in.Bits(4)), String(in, st));
      break;
    case 14:
      Core<void (*)(uint32_t, const wchar_t*)>(NVTX_CBID_CORE_NameOsThreadW)(
          static_cast<uint32_t>(in.Bits(4)), Wide(in, st));
      break;
    case 15: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      Core2<void (*)(nvtxDomainHandle_t, const nvtxEventAttributes_t*)>(
          NVTX_CBID_CORE2_DomainMarkEx)(d, Attributes(in, st, storage));
      break;
    }
    case 16: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      st.ranges.push_back(
          Core2<nvtxRangeId_t (*)(nvtxDomainHandle_t, const nvtxEventAttributes_t*)>(
              NVTX_CBID_CORE2_DomainRangeStartEx)(d, Attributes(in, st, storage)));
      break;
    }
    case 17: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      Core2<void (*)(nvtxDomainHandle_t, nvtxRangeId_t)>(NVTX_CBID_CORE2_DomainRangeEnd)(
          d, Pick(in, st.ranges));
      break;
    }
    case 18: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      if (Core2<int (*)(nvtxDomainHandle_t, const nvtxEventAttributes_t*)>(
              NVTX_CBID_CORE2_DomainRangePushEx)(d, Attributes(in, st, storage)) < 0) {
        Fail("domain push returned < 0");
      }
      break;
    }
    case 19:
      if (Core2<int (*)(nvtxDomainHandle_t)>(NVTX_CBID_CORE2_DomainRangePop)(Pick(in, st.domains)) <
          -1) {
        Fail("domain pop returned < -1");
      }
      break;
    case 20: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      nvtxResourceAttributes_t ra;
      std::memset(&ra, 0, sizeof(ra));
      nvtxResourceHandle_t h =
          Core2<nvtxResourceHandle_t (*)(nvtxDomainHandle_t, nvtxResourceAttributes_t*)>(
              NVTX_CBID_CORE2_DomainResourceCreate)(d, in.Byte() & 1 ? &ra : nullptr);
      Core2<void (*)(nvtxResourceHandle_t)>(NVTX_CBID_CORE2_DomainResourceDestroy)(h);
      break;
    }
    case 21:
      Core2<void (*)(nvtxResourceHandle_t)>(NVTX_CBID_CORE2_DomainResourceDestroy)(
          reinterpret_cast<nvtxResourceHandle_t>(static_cast<uintptr_t>(in.Bits(8))));
      break;
    case 22: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      Core2<void (*)(nvtxDomainHandle_t, uint32_t, const char*)>(
          NVTX_CBID_CORE2_DomainNameCategoryA)(d, in.Byte(), String(in, st));
      break;
    }
    case 23: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      Core2<void (*)(nvtxDomainHandle_t, uint32_t, const wchar_t*)>(
          NVTX_CBID_CORE2_DomainNameCategoryW)(d, in.Byte(), Wide(in, st));
      break;
    }
    case 24: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      const char* s = String(in, st);
      nvtxStringHandle_t h = Core2<nvtxStringHandle_t (*)(nvtxDomainHandle_t, const char*)>(
          NVTX_CBID_CORE2_DomainRegisterStringA)(d, s);
      if (s == nullptr && h != nullptr) Fail("a NULL string gave a handle");
      st.handles.push_back(h);
      break;
    }
    case 25: {
      nvtxDomainHandle_t d = Pick(in, st.domains);
      const wchar_t* s = Wide(in, st);
      nvtxStringHandle_t h = Core2<nvtxStringHandle_t (*)(nvtxDomainHandle_t, const wchar_t*)>(
          NVTX_CBID_CORE2_DomainRegisterStringW)(d, s);
      if (s == nullptr && h != nullptr) Fail("a NULL wide string gave a handle");
      st.handles.push_back(h);
      break;
    }
    case 26: {
      const char* name = String(in, st);
      CreateDomain(st,
                   Core2<nvtxDomainHandle_t (*)(const char*)>(NVTX_CBID_CORE2_DomainCreateA)(name),
                   name);
      break;
    }
    case 27: {
      const wchar_t* name = Wide(in, st);
      nvtxDomainHandle_t d =
          Core2<nvtxDomainHandle_t (*)(const wchar_t*)>(NVTX_CBID_CORE2_DomainCreateW)(name);
      if (name == nullptr && d != nullptr) Fail("a NULL wide domain name gave a handle");
      if (d != nullptr) st.domains.push_back(d);
      break;
    }
    case 28:
      Core2<void (*)(nvtxDomainHandle_t)>(NVTX_CBID_CORE2_DomainDestroy)(Pick(in, st.domains));
      break;
    case 29:
      Core2<void (*)(const void*)>(NVTX_CBID_CORE2_Initialize)(
          reinterpret_cast<const void*>(static_cast<uintptr_t>(in.Bits(8))));
      break;
    case 30:  // the capture window opens and closes between calls
      capture::SetRecordingFlag(in.Byte() & 1);
      break;
    case 31:  // fork: the hooks around it (the lock is held across the fork)
      capture::NvtxRegistryForkPrepare();
      capture::NvtxRegistryForkDone();
      break;
    default: {  // a pop of nothing must be -1 once every push is popped
      int depth;
      int pops = 0;
      while ((depth = Core<int (*)()>(NVTX_CBID_CORE_RangePop)()) >= 0) {
        if (++pops > 100000) Fail("pop never reaches the bottom");
      }
      if (depth != -1) Fail("pop of nothing did not return -1");
      break;
    }
  }
  DrainAndCheck();
}

bool Setup() {
  capture::Context& c = capture::CaptureContext();
  c.config.enabled = true;
  c.config.trace_nvtx = true;
  std::snprintf(c.config.trigger_range, sizeof(c.config.trigger_range), "%s", "t");
  c.config.trigger_any_domain = true;
  c.config.trigger_registered_only = false;
  c.config.range_end = capture::RangeEnd::kRepeat;
  for (int i = 0; i < NVTX_CBID_CORE_SIZE; ++i) g_core_slots[i] = &g_core[i];
  for (int i = 0; i < NVTX_CBID_CORE2_SIZE; ++i) g_core2_slots[i] = &g_core2[i];
  g_core_slots[0] = g_core2_slots[0] = nullptr;  // the INVALID ids
  capture::ChooseTickClock(false);
  if (!capture::NvtxRegistryInit()) Fail("registry init");
  if (InitializeInjectionNvtx2(GetExportTable) != 1) Fail("InitializeInjectionNvtx2");
  for (int i = 1; i < NVTX_CBID_CORE_SIZE; ++i) {
    if (g_core[i] == nullptr) Fail("a CORE entry point was not filled");
  }
  for (int i = 1; i < NVTX_CBID_CORE2_SIZE; ++i) {
    if (g_core2[i] == nullptr) Fail("a CORE2 entry point was not filled");
  }
  capture::CurrentTid();
  capture::t_thread.buffer = Ring();
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static bool ready = Setup();
  (void)ready;
  Input in(data, size);
  uint8_t mode = in.Byte();
  // Each input is a fresh process: empty registry, nothing pushed; recording on or off, with
  // or without the NVTX capture-range trigger (-c nvtx -p t@*).
  capture::NvtxRegistryResetForTesting();
  capture::SetRecordingFlag(mode & 1);
  capture::CaptureContext().config.nvtx_trigger = (mode & 2) != 0;
  capture::g_control.trigger.store(format::kTriggerNone);
  if (mode & 2) capture::NvtxArmTrigger();
  while (Core<int (*)()>(NVTX_CBID_CORE_RangePop)() >= 0) {
  }
  State st;
  for (int calls = 0; calls < 256 && !in.empty(); ++calls) Call(in, st);
  return 0;
}
