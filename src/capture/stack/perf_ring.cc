// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/perf_ring.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "capture/entry/syscall_probe.h"

namespace gsys::capture {
namespace {

size_t PageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

}  // namespace

int PerfRingOpen(perf_event_attr* attr, uint32_t tid, const size_t* pages_tried, size_t count,
                 PerfRing* ring) {
  // Guarded: a seccomp filter that kills on perf_event_open (a call the program may never
  // make) gets ENOSYS here instead, and the callers' "refused" paths apply.
  long fd = GuardedSyscall(SYS_perf_event_open, reinterpret_cast<long>(attr),
                           static_cast<long>(tid), -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return errno;
  int err = EINVAL;
  for (size_t i = 0; i < count; ++i) {
    size_t bytes = (1 + pages_tried[i]) * PageSize();
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, static_cast<int>(fd), 0);
    if (m == MAP_FAILED) {
      err = errno;
      continue;
    }
    ring->fd = static_cast<int>(fd);
    ring->base = m;
    ring->data_pages = pages_tried[i];
    return 0;
  }
  close(static_cast<int>(fd));
  return err;
}

void PerfRingDrain(PerfRing* ring, uint8_t* scratch, size_t scratch_bytes, PerfRecordVisitor visit,
                   void* context) {
  if (ring->base == nullptr) return;
  auto* meta = static_cast<perf_event_mmap_page*>(ring->base);
  const uint8_t* data = static_cast<const uint8_t*>(ring->base) + PageSize();
  const uint64_t size = ring->data_pages * PageSize();
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  while (tail < head) {
    perf_event_header h;
    for (size_t i = 0; i < sizeof(h); ++i) {
      reinterpret_cast<uint8_t*>(&h)[i] = data[(tail + i) % size];
    }
    if (h.size < sizeof(h)) {
      tail = head;  // corrupt: skip what is there
      break;
    }
    if (h.size <= scratch_bytes) {
      uint64_t off = tail % size;
      const uint8_t* rec = data + off;
      if (size - off < h.size) {
        uint64_t first = size - off;
        std::memcpy(scratch, data + off, first);
        std::memcpy(scratch + first, data, h.size - first);
        rec = scratch;
      }
      if (h.type == PERF_RECORD_LOST) {
        // u64 id, u64 lost after the header.
        if (h.size >= sizeof(h) + 16) {
          uint64_t lost = 0;
          std::memcpy(&lost, rec + sizeof(h) + 8, sizeof(lost));
          ring->lost += lost;
        }
      } else {
        visit(h, rec, context);
      }
    }
    tail += h.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

void PerfRingClose(PerfRing* ring) {
  if (ring->base != nullptr) munmap(ring->base, (1 + ring->data_pages) * PageSize());
  if (ring->fd >= 0) close(ring->fd);
  ring->base = nullptr;
  ring->fd = -1;
  ring->data_pages = 0;
}

}  // namespace gsys::capture
