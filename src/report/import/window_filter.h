// SPDX-License-Identifier: Apache-2.0
// KeepWindow: cuts an import down to one capture window of a live session. A live session's raw
// streams hold every window recorded so far (recording is off between windows, so little else),
// and one window's report keeps the events that start inside it: every table with a `start`
// column loses the rows outside [start, end]; NVTX domain and category names (metadata, not
// events) stay. Runs inside the import transaction, after every row is written.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"
#include "report/import/importer.h"
#include "report/import/process_facts.h"

namespace gsys::report {

// How far a capture-window record may be from the control page's time to stand for it.
inline constexpr int64_t kWindowSnapNs = 5'000'000;

// A range window (-c nvtx, -c cudaProfilerApi) is in the process's stream too, as a pair of
// capture-window records timed by the same clock as its events. The window the finalizer passes
// in was read from the control page (clock_gettime), and an event's time is its tick count
// converted with the session's clock fit, whose error reached ~0.2 ms on a loaded 2-core host:
// events microseconds inside the window fell out of it. This replaces `start`/`end`
// (session-relative ns) by the times of the record pair nearest to them, when both ends are
// within kWindowSnapNs; a window whose stop record is missing (the tree ended inside it) snaps
// its start only. Otherwise (launcher windows have no records) they stay.
void SnapWindowToRecords(const std::vector<CaptureWindowEvent>& records, int64_t* start,
                         int64_t* end);

// `start`/`end`: session-relative ns. Recounts the event totals of `sum` from what is kept.
Status KeepWindow(Database& db, int64_t start, int64_t end, ImportSummary* sum);

}  // namespace gsys::report
