// SPDX-License-Identifier: Apache-2.0
// Finalizer: turns one closed capture window of a live session into its report, the stats
// summaries beside it and their upload. Each window is finalized in a forked child of gsys, so
// the server never waits for it and nothing that goes wrong there (a crash, a hung upload)
// reaches the launcher or the server: an upload failure is logged, the report stays on disk.
//
// Threading: the launcher's thread. Children are reaped by the launcher's loop (OnChildExit)
// or by WaitAll.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/import/importer.h"

namespace gsys::serving {

struct WindowJob {
  int index = 0;         // 1-based window number, for messages
  int64_t start_ns = 0;  // CLOCK_MONOTONIC
  int64_t end_ns = 0;
  std::string session_dir;
  std::string report_path;
  std::string upload;                // "" = keep on disk only
  std::string response_file;         // written when done: "report=PATH\n" or "error=MESSAGE\n"
  bool tree_exited = false;          // the streams are complete: no need to wait for a flush
  bool stats = false;                // `gsys start --stats`: the default stats reports
  std::vector<std::string> exports;  // `gsys start --export`: types written beside the report
  // The control page's losses since the previous window closed (report::ImportOptions).
  std::optional<report::ControlCounts> control_counts;
};

struct FinalizeHooks {
  // Writes summaries beside `report` (text and JSON); returns their paths. May be empty.
  std::function<std::vector<std::string>(const std::string& report)> summarize;
  // Uploads `path` to `dest`. Empty = no upload support.
  std::function<Status(const std::string& path, const std::string& dest)> upload;
  // Writes the `type` export of `report` beside it (gsys export's default name).
  std::function<Status(const std::string& report, const std::string& type)> export_report;
  // Prints the default stats reports of `report` on stdout.
  std::function<void(const std::string& report)> print_stats;
};

// How long after a window closes the streams surely hold it: every process drains its buffers
// at least every GSYS_FLUSH_INTERVAL_MS (<= 250 ms), plus the CUDA flush (<= 250 ms).
// Then the streams themselves are checked (a drain after the window's end in every process),
// for at most kMaxSettleNs after the end: a starved host may drain late.
inline constexpr int64_t kSettleNs = 600'000'000;
inline constexpr int64_t kMaxSettleNs = 30'000'000'000;

// Runs `job` in this process (what the forked child does). Returns 0 on success.
int RunWindowJob(const WindowJob& job, const FinalizeHooks& hooks);

class Finalizer {
 public:
  explicit Finalizer(FinalizeHooks hooks) : hooks_(std::move(hooks)) {}

  // Forks the child for `job`. Errors (fork failed) are logged and returned.
  Status Start(const WindowJob& job);
  // A child exited (from the launcher's loop); false when it was not one of ours.
  bool OnChildExit(pid_t pid, int exit_code);
  // Waits until every child is done or `deadline_ns` (CLOCK_MONOTONIC) passes. Returns the
  // number still running (they are left to finish on their own).
  int WaitAll(int64_t deadline_ns);
  int running() const { return static_cast<int>(children_.size()); }
  int failures() const { return failures_; }
  int done() const { return done_; }

 private:
  FinalizeHooks hooks_;
  std::map<pid_t, WindowJob> children_;
  int failures_ = 0;
  int done_ = 0;
};

}  // namespace gsys::serving
