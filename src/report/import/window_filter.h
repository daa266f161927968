// SPDX-License-Identifier: Apache-2.0
// KeepWindow: cuts an import down to one capture window of a live session. A live session's raw
// streams hold every window recorded so far (recording is off between windows, so little else),
// and one window's report keeps the events that start inside it: every table with a `start`
// column loses the rows outside [start, end]; NVTX domain and category names (metadata, not
// events) stay. Runs inside the import transaction, after every row is written.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "report/db/database.h"
#include "report/import/importer.h"

namespace gsys::report {

// `start`/`end`: session-relative ns. Recounts the event totals of `sum` from what is kept.
Status KeepWindow(Database& db, int64_t start, int64_t end, ImportSummary* sum);

}  // namespace gsys::report
