// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_registry.h"

#include <sys/mman.h>

#include <atomic>
#include <cstring>

#include "capture/clock/clock.h"
#include "capture/entry/context.h"
#include "capture/sink/sink.h"
#include "format/record.h"

namespace gsys::capture {
namespace {

constexpr size_t kArenaBytes = 8u << 20;  // reserved, committed lazily by the kernel
constexpr size_t kMaxMatchIds = 64;

struct Registry {
  std::atomic<bool> lock{false};
  uint8_t* arena = nullptr;
  size_t used = 0;
  uint32_t next_domain = 1;
  std::atomic<uint64_t> next_string{1};
  std::atomic<uint32_t> trigger_domain{0};  // id of the trigger's named domain, 0 = not yet
  std::atomic<uint64_t> match_ids[kMaxMatchIds] = {};
  std::atomic<uint32_t> match_count{0};
};
Registry r;

void Lock() {
  while (r.lock.exchange(true, std::memory_order_acquire)) {
  }
}
void Unlock() { r.lock.store(false, std::memory_order_release); }

// Appends a name record to the arena and emits it. Lock held.
void Record(format::RecordKind kind, uint64_t id, uint32_t domain, const char* text, size_t len) {
  if (len > format::kMaxTextBytes) len = format::kMaxTextBytes;
  format::NvtxNameBody body{NowTicks(), id, domain, static_cast<uint32_t>(len)};
  EmitRecord(kind, body, text, static_cast<uint32_t>(len));
  size_t size = format::RecordSize(sizeof(body), len);
  if (r.arena == nullptr || r.used + size > kArenaBytes) return;
  uint8_t* p = r.arena + r.used;
  format::RecordHeader h{static_cast<uint16_t>(kind), static_cast<uint16_t>(size), CurrentTid()};
  std::memcpy(p, &h, sizeof(h));
  std::memcpy(p + sizeof(h), &body, sizeof(body));
  std::memcpy(p + sizeof(h) + sizeof(body), text, len);
  r.used += size;
}

bool Equal(const char* a, size_t alen, const char* b) {
  return std::strlen(b) == alen && std::memcmp(a, b, alen) == 0;
}

}  // namespace

bool NvtxRegistryInit() {
  void* p = mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  r.arena = static_cast<uint8_t*>(p);
  return true;
}

uint32_t NvtxRegistryDomain(const char* name, size_t len) {
  if (len > format::kMaxTextBytes) len = format::kMaxTextBytes;
  Lock();
  // Deduplicate: the same name gives the same handle in every module of the process.
  for (size_t off = 0; r.arena != nullptr && off < r.used;) {
    format::RecordHeader h;
    std::memcpy(&h, r.arena + off, sizeof(h));
    if (h.kind == static_cast<uint16_t>(format::RecordKind::kNvtxDomainCreate)) {
      format::NvtxNameBody body;
      std::memcpy(&body, r.arena + off + sizeof(h), sizeof(body));
      const char* text = reinterpret_cast<const char*>(r.arena + off + sizeof(h) + sizeof(body));
      if (body.text_len == len && std::memcmp(text, name, len) == 0) {
        Unlock();
        return static_cast<uint32_t>(body.id);
      }
    }
    off += h.size;
  }
  uint32_t id = r.next_domain++;
  Record(format::RecordKind::kNvtxDomainCreate, id, id, name, len);
  const CaptureConfig& c = CaptureContext().config;
  if (c.nvtx_trigger && c.trigger_domain[0] != '\0' && Equal(name, len, c.trigger_domain)) {
    r.trigger_domain.store(id);
  }
  Unlock();
  return id;
}

uint64_t NvtxRegistryString(uint32_t domain, const char* text, size_t len) {
  uint64_t id = r.next_string.fetch_add(1);
  Lock();
  Record(format::RecordKind::kNvtxRegisterString, id, domain, text, len);
  const CaptureConfig& c = CaptureContext().config;
  if (c.nvtx_trigger && Equal(text, len, c.trigger_range)) {
    uint32_t n = r.match_count.load();
    if (n < kMaxMatchIds) {
      r.match_ids[n].store(id);
      r.match_count.store(n + 1);
    }
  }
  Unlock();
  return id;
}

void NvtxRegistryCategory(uint32_t domain, uint32_t category, const char* name, size_t len) {
  Lock();
  Record(format::RecordKind::kNvtxNameCategory, category, domain, name, len);
  Unlock();
}

size_t NvtxRegistryCopy(uint8_t* out, size_t cap) {
  // Called with the registry locked by NvtxRegistryForkPrepare in the parent, so the arena
  // is consistent in the child.
  size_t n = r.used < cap ? r.used : 0;
  if (n != 0) std::memcpy(out, r.arena, n);
  return n;
}

void NvtxRegistryForkPrepare() { Lock(); }
void NvtxRegistryForkDone() { Unlock(); }

bool NvtxTriggerDomainMatches(uint32_t domain) {
  const CaptureConfig& c = CaptureContext().config;
  if (c.trigger_any_domain) return true;
  if (c.trigger_domain[0] == '\0') return domain == 0;
  return domain != 0 && domain == r.trigger_domain.load(std::memory_order_relaxed);
}

bool NvtxTriggerStringMatches(uint64_t string_id) {
  uint32_t n = r.match_count.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    if (r.match_ids[i].load(std::memory_order_relaxed) == string_id) return true;
  }
  return false;
}

}  // namespace gsys::capture
