// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_trigger_seen.h"

#include <cstring>

#include "capture/nvtx/nvtx_registry.h"
#include "capture/nvtx/nvtx_text.h"
#include "capture/sink/sink.h"
#include "format/control_page.h"
#include "format/record.h"

namespace gsys::capture {
namespace {

using format::kControlSeenSlots;
using format::kControlSeenTextBytes;

uint64_t Mix(uint64_t h, uint64_t byte) { return (h ^ byte) * 1099511628211ull; }

// FNV-1a of the message and the domain; never 0 (0 marks an unwritten slot).
uint64_t HashOf(uint32_t domain, const char* text, uint32_t len, uint64_t registered,
                const wchar_t* wide) {
  uint64_t h = 1469598103934665603ull;
  h = Mix(h, domain);
  if (registered != 0) {
    h = Mix(Mix(h, 'r'), registered);
  } else if (wide != nullptr) {
    for (const wchar_t* w = wide; *w != 0; ++w) h = Mix(h, static_cast<uint64_t>(*w));
  } else {
    for (uint32_t i = 0; i < len; ++i) h = Mix(h, static_cast<unsigned char>(text[i]));
  }
  return h == 0 ? 1 : h;
}

// "NAME@DOMAIN" (just NAME in the default domain), as -p would have to be written.
__attribute__((noinline, cold)) uint8_t Describe(uint32_t domain, const char* text, uint32_t len,
                                                 uint64_t registered, const wchar_t* wide,
                                                 char* out) {
  char name[kControlSeenTextBytes + 1];
  size_t n = 0;
  if (registered != 0) {
    n = NvtxRegistryNameOf(format::RecordKind::kNvtxRegisterString, registered, name, sizeof(name));
  } else if (wide != nullptr) {
    bool cut = false;
    char utf8[format::kMaxTextBytes + 1];
    n = WideToUtf8(wide, utf8, sizeof(utf8), &cut);
    if (n > kControlSeenTextBytes) n = kControlSeenTextBytes;
    std::memcpy(name, utf8, n);
  } else if (text != nullptr) {
    n = len < kControlSeenTextBytes ? len : kControlSeenTextBytes;
    std::memcpy(name, text, n);
  }
  char dom[kControlSeenTextBytes + 1];
  size_t d = domain == 0 ? 0
                         : NvtxRegistryNameOf(format::RecordKind::kNvtxDomainCreate, domain, dom,
                                              sizeof(dom));
  size_t used = n < kControlSeenTextBytes ? n : kControlSeenTextBytes;
  std::memcpy(out, name, used);
  if (d != 0 && used + 1 < kControlSeenTextBytes) {
    out[used++] = '@';
    size_t room = kControlSeenTextBytes - used;
    size_t take = d < room ? d : room;
    std::memcpy(out + used, dom, take);
    used += take;
  }
  return static_cast<uint8_t>(used);
}

}  // namespace

void NvtxTriggerNoteMiss(uint32_t domain, const char* text, uint32_t len, uint64_t registered,
                         const wchar_t* wide) {
  std::atomic<uint32_t>& claimed = g_control.seen_claimed;
  uint32_t n = claimed.load(std::memory_order_relaxed);
  if (n >= kControlSeenSlots) return;  // full: the common steady state costs one load
  if (registered == 0 && wide == nullptr && text == nullptr) return;  // an unnamed range
  uint64_t h = HashOf(domain, text, len, registered, wide);
  for (uint32_t i = 0; i < n; ++i) {
    if (g_control.seen[i].hash.load(std::memory_order_relaxed) == h) return;
  }
  uint32_t slot = claimed.fetch_add(1, std::memory_order_relaxed);
  if (slot >= kControlSeenSlots) return;
  format::ControlSeenName& s = g_control.seen[slot];
  s.registered = registered != 0 ? 1 : 0;
  s.len = Describe(domain, text, len, registered, wide, s.text);
  s.hash.store(h, std::memory_order_release);
}

}  // namespace gsys::capture
