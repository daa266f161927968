// SPDX-License-Identifier: Apache-2.0
// Where an import writes its report before it is complete, and how the finished file is put in
// place: shared by the session importer and the Kineto trace importer.
#pragma once

#include <string>

#include "common/status.h"

namespace gsys::report {

// OUTPUT.tmp-import-PID: per run, since a fixed name let a concurrent import of the same -o
// delete this run's file (and rename its own half-written one into place).
std::string TemporaryReportPath(const std::string& output);

// Removes this user's OUTPUT.tmp-import-PID files (and their SQLite journals) whose PID no
// longer runs: what a killed import left. A live PID's file is another import's, kept (a PID
// reused by an unrelated process only keeps a leftover longer). Returns how many went.
int RemoveDeadImportLeftovers(const std::string& output);

// Renames `tmp` to `output`. Without `force`, a report another run made at `output` after the
// up-front check stays (renameat2 RENAME_NOREPLACE) and this fails with one line; with it, it is
// replaced. `tmp` is left for the caller's cleanup on failure.
Status PlaceReport(const std::string& tmp, const std::string& output, bool force);

}  // namespace gsys::report
