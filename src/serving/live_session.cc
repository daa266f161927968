// SPDX-License-Identifier: Apache-2.0
#include "serving/live_session.h"

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

bool LiveSession::Close(int64_t, std::string* report_path, const std::string& response_file) {
  if (!open_) return false;
  int64_t end = launcher::MonotonicNowNs();
  control_.SetRecording(false);
  OpenWindow w = *open_;
  open_.reset();
  if (!response_file.empty()) w.request.response_file = response_file;
  last_report_.clear();
  StartFinalizer(w.start_ns, end, w.request, false);
  if (report_path != nullptr) *report_path = last_report_;
  return true;
}

void LiveSession::Tick(int64_t now) {
  if (open_ && open_->request.duration_ns > 0 && now - open_->start_ns >= open_->request.duration_ns) {
    Close(now);
  }
  control_.PollRangeWindows([&](int64_t start, int64_t end) {
    if (options_.max_repeat > 0 && range_windows_ >= options_.max_repeat) return;
    ++range_windows_;
    StartFinalizer(start, end, {}, false);
  });
}

int LiveSession::Finish(int64_t now, int64_t deadline_ns) {
  if (open_) {
    OpenWindow w = *open_;
    open_.reset();
    control_.SetRecording(false);
    StartFinalizer(w.start_ns, now, w.request, true);
  }
  control_.PollRangeWindows(
      [&](int64_t start, int64_t end) {
        if (options_.max_repeat > 0 && range_windows_ >= options_.max_repeat) return;
        ++range_windows_;
        StartFinalizer(start, end, {}, true);
      },
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
  std::fprintf(stderr, "gsys: window %d closed after %.2f s; writing %s\n", windows_,
               static_cast<double>(end - start) / 1e9, job.report_path.c_str());
  Status s = finalizer_.Start(job);
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.message().c_str());
}

}  // namespace gsys::serving
