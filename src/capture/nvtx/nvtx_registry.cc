// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_registry.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "capture/clock/clock.h"
#include "capture/entry/context.h"
#include "capture/nvtx/nvtx_name_table.h"
#include "capture/nvtx/nvtx_text.h"
#include "capture/sink/sink.h"
#include "format/record.h"

namespace gsys::capture {
namespace {

using format::RecordKind;

constexpr size_t kArenaBytes = 8u << 20;  // reserved, committed lazily by the kernel
constexpr size_t kMaxMatchIds = 64;

struct Registry {
  std::atomic<bool> lock{false};
  bool fork_locked = false;  // ForkPrepare took the lock (ForkDone releases it)
  NvtxNameTable table;
  std::atomic<uint32_t> domains{0};         // ids 1..domains were returned
  std::atomic<uint64_t> next_string{1};     // handles 1..next_string-1 were returned
  std::atomic<uint32_t> trigger_domain{0};  // id of the trigger's named domain, 0 = not yet
  std::atomic<uint64_t> match_ids[kMaxMatchIds] = {};
  std::atomic<uint32_t> match_count{0};
};
constinit Registry r;

// Set while this thread is inside the registry: a signal handler that registers a name on
// the same thread must not spin on a lock its own thread holds.
__thread bool t_in_registry __attribute__((tls_model("initial-exec"))) = false;

// Holds the registry lock for a scope; `ok()` is false when this thread already holds it.
class Locked {
 public:
  Locked() : ok_(!t_in_registry) {
    if (!ok_) return;
    t_in_registry = true;
    for (int spins = 0; r.lock.exchange(true, std::memory_order_acquire); ++spins) {
      if (spins >= 64) syscall(SYS_sched_yield);  // the holder may be preempted
    }
  }
  ~Locked() {
    if (!ok_) return;
    r.lock.store(false, std::memory_order_release);
    t_in_registry = false;
  }
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_;
};

// Name records must not be lost to a full thread buffer: the events of a domain whose name
// was dropped would have none. So a thread that registers names faster than the writer drains
// them waits for it: after half a buffer of name records since its buffer was last seen empty,
// it wakes the writer and waits (at most kDrainWaitNs) until the buffer is empty. Events never
// wait; programs register tens to thousands of names and never get here (200 000 domains in a
// loop do). A writer that does not drain in time (capture stopped, starved machine) turns the
// waiting off until a buffer is next seen empty, so the wait costs a stuck writer little.
constexpr int64_t kDrainWaitNs = 200 * 1000 * 1000;
__thread size_t t_name_bytes __attribute__((tls_model("initial-exec"))) = 0;
std::atomic<bool> g_writer_late{false};

void MakeRoomForNames(size_t size) {
  ThreadBuffer* b = t_thread.buffer;
  if (b == nullptr) return;
  if (b->Empty()) {
    t_name_bytes = 0;
    g_writer_late.store(false, std::memory_order_relaxed);
  }
  t_name_bytes += size;
  if (t_name_bytes <= b->capacity() / 2 || g_writer_late.load(std::memory_order_relaxed)) return;
  WakeWriter(b);
  const int64_t deadline = MonotonicNs() + kDrainWaitNs;
  while (!b->Empty()) {
    if (MonotonicNs() > deadline) {
      g_writer_late.store(true, std::memory_order_relaxed);
      break;
    }
    timespec ts{0, 50 * 1000};
    syscall(SYS_nanosleep, &ts, nullptr);
  }
  t_name_bytes = size;
}

// Emits a name record and keeps it in the table. Lock held.
void Record(RecordKind kind, uint64_t id, uint32_t domain, const char* text, size_t len, bool cut) {
  MakeRoomForNames(format::RecordSize(sizeof(format::NvtxNameBody), len));
  format::NvtxNameBody body{NowTicks(), id, domain, static_cast<uint32_t>(len)};
  EmitRecord(kind, body, text, static_cast<uint32_t>(len));
  if (cut) NvtxCountTruncation();
  format::RecordHeader h{static_cast<uint16_t>(kind),
                         static_cast<uint16_t>(format::RecordSize(sizeof(body), len)),
                         CurrentTid()};
  r.table.Put(h, body, text);
}

bool Equal(const char* a, size_t alen, const char* b) {
  return std::strlen(b) == alen && std::memcmp(a, b, alen) == 0;
}

}  // namespace

bool NvtxRegistryInit() {
  Locked lock;
  if (!lock.ok() || r.table.arena() != nullptr) return r.table.arena() != nullptr;
  return r.table.Init(kArenaBytes);
}

uint32_t NvtxRegistryDomain(const char* name, size_t len, bool cut) {
  Locked lock;
  if (!lock.ok()) return 0;
  // The same name gives the same handle in every module of the process.
  const char* stored;
  const format::NvtxNameBody* found =
      r.table.Find(RecordKind::kNvtxDomainCreate, 0, 0, name, len, &stored);
  if (found != nullptr) return static_cast<uint32_t>(found->id);
  uint32_t id = r.domains.load(std::memory_order_relaxed) + 1;
  if (id == 0) return 0;  // 2^32 - 1 domains: the default domain from here on
  Record(RecordKind::kNvtxDomainCreate, id, id, name, len, cut);
  r.domains.store(id, std::memory_order_release);
  const CaptureConfig& c = CaptureContext().config;
  if (c.nvtx_trigger && c.trigger_domain[0] != '\0' && Equal(name, len, c.trigger_domain)) {
    r.trigger_domain.store(id);
  }
  return id;
}

uint64_t NvtxRegistryString(uint32_t domain, const char* text, size_t len, bool cut) {
  Locked lock;
  if (!lock.ok()) return 0;
  const char* stored;
  const format::NvtxNameBody* found =
      r.table.Find(RecordKind::kNvtxRegisterString, domain, 0, text, len, &stored);
  if (found != nullptr) return found->id;
  uint64_t id = r.next_string.load(std::memory_order_relaxed);
  Record(RecordKind::kNvtxRegisterString, id, domain, text, len, cut);
  r.next_string.store(id + 1, std::memory_order_release);
  const CaptureConfig& c = CaptureContext().config;
  if (c.nvtx_trigger && Equal(text, len, c.trigger_range)) {
    uint32_t n = r.match_count.load();
    if (n < kMaxMatchIds) {
      r.match_ids[n].store(id);
      r.match_count.store(n + 1);
    }
  }
  return id;
}

void NvtxRegistryCategory(uint32_t domain, uint32_t category, const char* name, size_t len,
                          bool cut) {
  Locked lock;
  if (!lock.ok()) return;
  const char* stored;
  const format::NvtxNameBody* found =
      r.table.Find(RecordKind::kNvtxNameCategory, domain, category, name, len, &stored);
  if (found != nullptr && found->text_len == len && std::memcmp(stored, name, len) == 0) return;
  Record(RecordKind::kNvtxNameCategory, category, domain, name, len, cut);
}

uint32_t NvtxRegistryDomainOf(uintptr_t handle) {
  return handle != 0 && handle <= r.domains.load(std::memory_order_acquire)
             ? static_cast<uint32_t>(handle)
             : 0;
}

bool NvtxRegistryStringKnown(uint64_t handle) {
  return handle != 0 && handle < r.next_string.load(std::memory_order_acquire);
}

size_t NvtxRegistryNameOf(RecordKind kind, uint64_t id, char* out, size_t cap) {
  if (cap == 0) return 0;
  out[0] = '\0';
  Locked lock;
  if (!lock.ok() || r.table.arena() == nullptr) return 0;
  const uint8_t* p = r.table.arena();
  const uint8_t* end = p + r.table.used();
  while (p + sizeof(format::RecordHeader) + sizeof(format::NvtxNameBody) <= end) {
    format::RecordHeader h;
    format::NvtxNameBody b;
    std::memcpy(&h, p, sizeof(h));
    std::memcpy(&b, p + sizeof(h), sizeof(b));
    if (h.size == 0) break;
    if (h.kind == static_cast<uint16_t>(kind) && b.id == id) {
      size_t n = b.text_len < cap - 1 ? b.text_len : cap - 1;
      std::memcpy(out, p + sizeof(h) + sizeof(b), n);
      out[n] = '\0';
      return n;
    }
    p += h.size;
  }
  return 0;
}

size_t NvtxRegistryCopy(uint8_t* out, size_t cap) {
  // Called with the registry locked by NvtxRegistryForkPrepare in the parent, so the arena
  // is consistent in the child.
  size_t used = r.table.used();
  size_t n = used < cap ? used : 0;
  if (n != 0) std::memcpy(out, r.table.arena(), n);
  return n;
}

// The forking thread holds the lock across fork(), so the child's copy of the table is
// consistent. A fork from a signal handler that interrupted this thread's own registration
// finds the lock already held by its thread and leaves it alone.
void NvtxRegistryForkPrepare() {
  if (t_in_registry) return;
  t_in_registry = true;
  while (r.lock.exchange(true, std::memory_order_acquire)) {
  }
  r.fork_locked = true;
}

void NvtxRegistryForkDone() {
  if (!r.fork_locked) return;
  r.fork_locked = false;
  r.lock.store(false, std::memory_order_release);
  t_in_registry = false;
}

void NvtxRegistryResetForTesting() {
  Locked lock;
  if (!lock.ok()) return;
  bool had_arena = r.table.arena() != nullptr;
  r.table.Release();
  if (had_arena) r.table.Init(kArenaBytes);
  r.domains.store(0);
  r.next_string.store(1);
  r.trigger_domain.store(0);
  r.match_count.store(0);
}

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
