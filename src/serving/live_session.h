// SPDX-License-Identifier: Apache-2.0
// LiveSession: capture windows on a running, injected process tree, each finalized into its
// own report while the tree keeps running. Windows come from three places:
//   - the launcher (serving schedule, `gsys start/stop`, SIGUSR2): Open()/Close();
//   - capture ranges inside the tree (-c nvtx, -c cudaProfilerApi, session-wide through the
//     control page): picked up by Tick();
//   - the end of the tree: Finish() closes what is open.
// Recording is switched through the control page (control_file.h), so outside windows the
// injected library records nothing but names and process facts.
//
// Threading: the launcher's thread (its on_tick / on_signal hooks).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "serving/control_file.h"
#include "serving/finalizer.h"
#include "serving/report_name.h"

namespace gsys::serving {

struct LiveSessionOptions {
  std::string session_dir;
  ReportNaming naming;  // default report names
  std::string upload;   // default destination ("" = none)
  FinalizeHooks hooks;
  int64_t max_repeat = 0;  // range windows: finalize at most this many (0 = all)
  // Outputs named by requests (`gsys start -o`) must lie inside this directory (absolute; a
  // relative name starts here). "" = no request may name an output.
  std::string request_output_dir;
  // What every window does with its report unless its request asks otherwise (`gsys profile -Y
  // --stats --export T`): print the default stats reports, write these export types.
  bool window_stats = false;
  std::vector<std::string> window_exports;
};

// Overrides for one launcher-opened window (`gsys start -o OUT -d SEC --stats --export T`),
// or for the windows of a range `gsys start -c nvtx` armed.
struct WindowRequest {
  std::string output;                // "" = the session's naming
  int64_t duration_ns = 0;           // 0 = until Close()
  std::string response_file;         // answered by the window's finalizer
  bool stats = false;                // print the default stats reports of the report
  std::vector<std::string> exports;  // export types written beside the report
};

// What `gsys status` shows of a session.
struct LiveStatus {
  bool window_open = false;      // a launcher window (gsys start) is open
  int64_t open_for_ns = 0;       // since it opened
  bool range_armed = false;      // `gsys start -c nvtx` armed the tree's NVTX range
  bool range_recording = false;  // a capture range holds a window open now
  int range_windows_left = 0;    // windows the armed range may still open (-1: no limit)
  int windows = 0;               // windows handed to a finalizer
  int cancelled = 0;
  int finalizing = 0, failed = 0, written = 0;
};

class LiveSession {
 public:
  LiveSession(LiveSessionOptions options, ControlFile control)
      : options_(std::move(options)), control_(std::move(control)), finalizer_(options_.hooks) {}

  bool window_open() const { return open_.has_value(); }
  // Whether the report name `request` asks for is allowed (request_output_dir), before Open.
  Status CheckRequest(const WindowRequest& request) { return ReportPathFor(request).status(); }
  // Opens a launcher window now; false when one is open already.
  bool Open(int64_t now, const WindowRequest& request = {});
  // Closes the launcher window and starts its finalizer; false when none is open.
  // `response_file` (if not empty) replaces the window's own (`gsys stop` waits on it).
  // `keep_ns` > 0 keeps only the window's last `keep_ns` (`gsys stop --keep`).
  bool Close(int64_t now, std::string* report_path = nullptr, const std::string& response_file = "",
             int64_t keep_ns = 0);
  // Discards the open launcher window, or the armed range and the window it holds open, without
  // a report (`gsys cancel`); false when there is neither.
  bool Cancel();
  // `gsys start -c nvtx`: arms the tree's NVTX trigger (the tree must have been started with
  // -p) for at most `max_windows` range windows (0 = no limit), each written as `request` says.
  void ArmRange(const WindowRequest& request, int max_windows);
  bool range_armed() const { return armed_.has_value(); }
  LiveStatus StatusAt(int64_t now) const;
  // Duration limits and range windows of the tree.
  void Tick(int64_t now);
  // The tree exited (or gsys is ending): closes what is open, finalizes it, waits at most until
  // `deadline_ns`. Returns the number of finalizers still running at the deadline.
  int Finish(int64_t now, int64_t deadline_ns);
  // From the launcher's loop: a child gsys forked exited.
  bool OnChildExit(pid_t pid, int exit_code) { return finalizer_.OnChildExit(pid, exit_code); }

  int windows() const { return windows_; }
  // Windows that capture ranges opened (each counted once it closed), up to max_repeat.
  int range_windows() const { return range_windows_; }
  const Finalizer& finalizer() const { return finalizer_; }
  ControlFile& control() { return control_; }

 private:
  struct OpenWindow {
    int64_t start_ns;
    WindowRequest request;
  };
  struct ArmedRange {
    WindowRequest request;
    int left;           // windows still to finalize; -1 = no limit
    bool discard_next;  // `gsys cancel` while the range held a window open
  };
  void StartFinalizer(int64_t start, int64_t end, const WindowRequest& request, bool tree_exited);
  // One window a capture range closed (`tree_exited`: at the end of the tree).
  void OnRangeWindow(int64_t start, int64_t end, bool tree_exited);
  Result<std::string> ReportPathFor(const WindowRequest& request);

  LiveSessionOptions options_;
  ControlFile control_;
  Finalizer finalizer_;
  std::optional<OpenWindow> open_;
  std::optional<ArmedRange> armed_;
  std::set<std::string> reserved_;  // report paths handed out (not written yet)
  std::string last_report_;
  int windows_ = 0;
  report::ControlCounts reported_counts_;  // the control page's counts at the last window close
  int range_windows_ = 0;
  int cancelled_ = 0;
};

}  // namespace gsys::serving
