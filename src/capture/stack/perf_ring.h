// SPDX-License-Identifier: Apache-2.0
// A perf_event ring mapped by this process, shared by the context-switch events (ctxsw.h) and
// the CPU sampling events (perf_sampler.h): open an event on one thread, map its ring, visit the
// records the kernel wrote since the last drain, unmap. PERF_RECORD_LOST records are counted
// here; every other record goes to the caller's visitor.
//
// Threading: the sampler thread only (and a fork child on its way out, for Close).
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

struct PerfRing {
  int fd = -1;
  void* base = nullptr;   // metadata page + data pages
  size_t data_pages = 0;  // power of two
  uint64_t lost = 0;      // records the kernel dropped (PERF_RECORD_LOST)
};

// Opens `attr` on thread `tid` of this process and maps a ring of the first size in
// `pages_tried[0..count)` that mmap accepts (a smaller one when the locked-memory allowance,
// perf_event_mlock_kb, is short). Returns 0 or the errno of the failure.
int PerfRingOpen(perf_event_attr* attr, uint32_t tid, const size_t* pages_tried, size_t count,
                 PerfRing* ring);

// Called for each record: its header and its bytes (header included), valid during the call.
using PerfRecordVisitor = void (*)(const perf_event_header& header, const uint8_t* record,
                                   void* context);

// Visits every record written since the last drain and frees its space in the ring. A record
// that does not wrap around the end of the ring is passed in place (the sampler's unwinder then
// touches only the stack slots it needs); one that wraps is copied into `scratch` first, and
// one larger than `scratch_bytes` is skipped. A corrupt header skips what is in the ring.
void PerfRingDrain(PerfRing* ring, uint8_t* scratch, size_t scratch_bytes, PerfRecordVisitor visit,
                   void* context);

void PerfRingClose(PerfRing* ring);

}  // namespace gsys::capture
