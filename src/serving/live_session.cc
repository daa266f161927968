// SPDX-License-Identifier: Apache-2.0
#include "serving/live_session.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "launcher/launcher.h"

namespace gsys::serving {

bool LiveSession::Open(int64_t now, const WindowRequest& request) {
  if (open_) return false;
  // The start is read after recording turned on and the end (Close) before it turns off, so
  // whatever happens wholly between them is recorded complete; events recorded just outside
  // are dropped by the import's time filter.
  (void)now;
  control_.SetRecording(true);
  open_ = OpenWindow{launcher::MonotonicNowNs(), request};
  std::fprintf(stderr, "gsys: window %d opened\n", windows_ + 1);
  return true;
}

bool LiveSession::Close(int64_t, std::string* report_path, const std::string& response_file,
                        int64_t keep_ns) {
  if (!open_) return false;
  int64_t end = launcher::MonotonicNowNs();
  control_.SetRecording(false);
  OpenWindow w = *open_;
  open_.reset();
  if (!response_file.empty()) w.request.response_file = response_file;
  // nsys's stop --keep: only the last `keep_ns` of the window (the import's time filter).
  if (keep_ns > 0 && end - keep_ns > w.start_ns) w.start_ns = end - keep_ns;
  last_report_.clear();
  StartFinalizer(w.start_ns, end, w.request, false);
  if (report_path != nullptr) *report_path = last_report_;
  return true;
}

bool LiveSession::Cancel() {
  if (open_) {
    control_.SetRecording(false);
    open_.reset();
    ++cancelled_;
    std::fprintf(stderr, "gsys: window %d cancelled; no report written\n", windows_ + 1);
    return true;
  }
  if (!armed_) return false;
  if (control_.DisarmTrigger()) {
    armed_.reset();
    ++cancelled_;
    std::fprintf(stderr, "gsys: capture range disarmed; no report written\n");
  } else {
    // The tree's range holds a window open, and only the range's end closes it cleanly.
    armed_->discard_next = true;
    std::fprintf(stderr,
                 "gsys: the window the capture range holds open is discarded when the "
                 "range ends\n");
  }
  return true;
}

void LiveSession::ArmRange(const WindowRequest& request, int max_windows) {
  armed_ = ArmedRange{request, max_windows > 0 ? max_windows : -1, false};
  control_.ArmTrigger();
  std::fprintf(stderr, "gsys: capture range armed (%s)\n",
               max_windows > 0 ? (std::to_string(max_windows) + " window(s)").c_str() : "repeat");
}

LiveStatus LiveSession::StatusAt(int64_t now) const {
  LiveStatus st;
  st.window_open = open_.has_value();
  if (open_) st.open_for_ns = now - open_->start_ns;
  st.range_armed = armed_.has_value();
  st.range_recording = control_.recording() && !open_;
  st.range_windows_left = armed_ ? armed_->left : 0;
  st.windows = windows_;
  st.cancelled = cancelled_;
  st.finalizing = finalizer_.running();
  st.failed = finalizer_.failures();
  st.written = finalizer_.done() - finalizer_.failures();
  return st;
}

void LiveSession::OnRangeWindow(int64_t start, int64_t end, bool tree_exited) {
  if (armed_) {
    if (armed_->discard_next) {
      armed_.reset();
      ++cancelled_;
      std::fprintf(stderr, "gsys: range window cancelled; no report written\n");
      return;
    }
    WindowRequest request = armed_->request;
    if (armed_->left > 0) --armed_->left;
    // The tree's range end is `stop` (launch_command.cc): it re-arms only when told to.
    if (armed_->left == 0) {
      armed_.reset();
    } else if (!tree_exited) {
      control_.ArmTrigger();
    }
    StartFinalizer(start, end, request, tree_exited);
    return;
  }
  if (options_.max_repeat > 0 && range_windows_ >= options_.max_repeat) return;
  ++range_windows_;
  StartFinalizer(start, end, {}, tree_exited);
}

void LiveSession::Tick(int64_t now) {
  if (open_ && open_->request.duration_ns > 0 &&
      now - open_->start_ns >= open_->request.duration_ns) {
    Close(now);
  }
  control_.PollRangeWindows([&](int64_t start, int64_t end) { OnRangeWindow(start, end, false); });
}

int LiveSession::Finish(int64_t now, int64_t deadline_ns) {
  if (open_) {
    OpenWindow w = *open_;
    open_.reset();
    control_.SetRecording(false);
    StartFinalizer(w.start_ns, now, w.request, true);
  }
  control_.PollRangeWindows([&](int64_t start, int64_t end) { OnRangeWindow(start, end, true); },
                            true, now);
  return finalizer_.WaitAll(deadline_ns);
}

Result<std::string> LiveSession::ReportPathFor(const WindowRequest& request) {
  ReportNaming naming = options_.naming;
  if (!request.output.empty()) {
    // The name comes from another process (a request file): it may only place the report
    // inside the session's output directory.
    if (options_.request_output_dir.empty()) {
      return Error(StatusCode::kInvalidArgument, "this session takes no output names");
    }
    const std::string& dir = options_.request_output_dir;
    naming.output = request.output[0] == '/' ? request.output : dir + "/" + request.output;
    naming.confine_to = dir;
  }
  auto fs_exists = naming.exists;
  naming.exists = [&](const std::string& p) {
    return reserved_.count(p) != 0 || (fs_exists && fs_exists(p));
  };
  return WindowReportPath(naming, launcher::RealtimeNowNs());
}

void LiveSession::StartFinalizer(int64_t start, int64_t end, const WindowRequest& request,
                                 bool tree_exited) {
  ++windows_;
  auto path = ReportPathFor(request);
  if (!path.ok()) {
    std::fprintf(stderr, "gsys: window %d: %s\n", windows_, path.status().message().c_str());
    return;
  }
  reserved_.insert(*path);
  last_report_ = std::filesystem::absolute(*path).string();
  WindowJob job;
  job.index = windows_;
  job.start_ns = start;
  job.end_ns = end;
  job.session_dir = options_.session_dir;
  job.report_path = std::filesystem::absolute(*path).string();
  job.upload = options_.upload;
  job.response_file = request.response_file;
  job.tree_exited = tree_exited;
  job.stats = request.stats || options_.window_stats;
  job.exports = request.exports.empty() ? options_.window_exports : request.exports;
  // The session-wide loss counters, as what changed since the previous window closed: every
  // window report would otherwise repeat the losses of all earlier ones.
  report::ControlCounts now = report::ReadControlCounts(options_.session_dir);
  job.control_counts = report::ControlCounts{
      now.records_after_final_flush -
          std::min(now.records_after_final_flush, reported_counts_.records_after_final_flush),
      now.processes_unwritable -
          std::min(now.processes_unwritable, reported_counts_.processes_unwritable)};
  reported_counts_ = now;
  std::fprintf(stderr, "gsys: window %d closed after %.2f s; writing %s\n", windows_,
               static_cast<double>(end - start) / 1e9, job.report_path.c_str());
  Status s = finalizer_.Start(job);
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.message().c_str());
}

}  // namespace gsys::serving
