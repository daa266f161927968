// SPDX-License-Identifier: Apache-2.0
#include "serving/finalizer.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "format/record.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "format/stream_reader.h"
#include "launcher/launcher.h"
#include "report/import/importer.h"

namespace gsys::serving {
namespace {

void SleepUntil(int64_t monotonic_ns) {
  for (;;) {
    int64_t left = monotonic_ns - launcher::MonotonicNowNs();
    if (left <= 0) return;
    timespec ts{static_cast<time_t>(left / 1000000000), static_cast<long>(left % 1000000000)};
    nanosleep(&ts, nullptr);
  }
}

// True when the last chunk of the CPU stream at `path` shows a drain that started after
// `after_ns` (its closing clock-sync record), or the process's exit flush. CUDA streams (no
// clock-sync records) and unreadable files count as settled.
bool StreamSettled(const std::string& path, int64_t after_ns) {
  auto f = format::StreamFile::Open(path);
  if (!f.ok() || f->chunks().empty()) return true;
  const format::ChunkRef& last = f->chunks().back();
  format::RecordCursor cur(last.payload, last.header.payload_size);
  format::RecordView r;
  bool cpu_stream = false;
  while (cur.Next(&r)) {
    if (r.kind == format::RecordKind::kProcessEnd) return true;
    format::ClockSyncBody s;
    if (r.kind == format::RecordKind::kClockSync && r.Body(&s)) {
      cpu_stream = true;
      if (s.monotonic_ns >= after_ns) return true;
    }
  }
  return !cpu_stream;
}

// Waits until every process has drained what it recorded up to `end_ns` (each drains at least
// every GSYS_FLUSH_INTERVAL_MS; a starved host can take longer), at most until `deadline_ns`.
void WaitForStreams(const std::string& dir, int64_t end_ns, int64_t deadline_ns) {
  const int64_t after = end_ns + 20'000'000;  // records committed just after their timestamp
  while (launcher::MonotonicNowNs() < deadline_ns) {
    bool all = true;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (e.path().extension() == format::kStreamFileSuffix &&
          !StreamSettled(e.path().string(), after)) {
        all = false;
        break;
      }
    }
    if (all) return;
    timespec ts{0, 50 * 1000 * 1000};
    nanosleep(&ts, nullptr);
  }
}

void Respond(const std::string& file, const format::SessionMeta& answer) {
  if (file.empty()) return;
  std::string tmp = file + ".tmp";
  {
    std::ofstream out(tmp);
    out << format::SerializeSessionMeta(answer);
  }
  std::rename(tmp.c_str(), file.c_str());
}

std::string Basename(const std::string& p) {
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

}  // namespace

int RunWindowJob(const WindowJob& job, const FinalizeHooks& hooks) {
  if (!job.tree_exited) {
    SleepUntil(job.end_ns + kSettleNs);
    WaitForStreams(job.session_dir, job.end_ns, job.end_ns + kMaxSettleNs);
  }
  report::ImportOptions io;
  io.session_dir = job.session_dir;
  io.output_path = job.report_path;
  io.window_start_ns = job.start_ns;
  io.window_end_ns = job.end_ns;
  io.control_counts = job.control_counts;
  auto sum = report::ImportSession(io);
  if (!sum.ok()) {
    std::fprintf(stderr, "gsys: window %d: %s (the raw capture stays in %s)\n", job.index,
                 sum.status().message().c_str(), job.session_dir.c_str());
    Respond(job.response_file, {{"error", sum.status().message()}});
    return 1;
  }
  std::fprintf(stderr,
               "gsys: window %d: generated %s: %llu NVTX events, %llu OS runtime events, "
               "%llu CUDA kernels, %.2f s\n",
               job.index, job.report_path.c_str(),
               static_cast<unsigned long long>(sum->nvtx_events),
               static_cast<unsigned long long>(sum->osrt_events),
               static_cast<unsigned long long>(sum->cuda_kernels),
               static_cast<double>(job.end_ns - job.start_ns) / 1e9);
  for (const auto& w : sum->warnings)
    std::fprintf(stderr, "gsys: window %d: warning: %s\n", job.index, w.c_str());
  for (const auto& type : job.exports) {
    Status ok = hooks.export_report ? hooks.export_report(job.report_path, type)
                                    : Error(StatusCode::kUnsupported, "no exporter");
    if (!ok.ok()) std::fprintf(stderr, "gsys: window %d: %s\n", job.index, ok.message().c_str());
  }
  // With --stats, whoever waits for the report prints them (`gsys stop`, told so by the
  // answer); a window nobody waits for (start -d, the tree's end) prints them here.
  if (job.stats && job.response_file.empty() && hooks.print_stats) {
    std::fflush(stderr);
    hooks.print_stats(job.report_path);
    std::fflush(stdout);
  }
  std::vector<std::string> files = {job.report_path};
  if (hooks.summarize) {
    for (const auto& f : hooks.summarize(job.report_path)) files.push_back(f);
  }
  int rc = 0;
  if (!job.upload.empty()) {
    for (const auto& f : files) {
      Status up = hooks.upload ? hooks.upload(f, job.upload)
                               : Error(StatusCode::kUnsupported, "this gsys has no upload support");
      if (up.ok()) {
        std::fprintf(stderr, "gsys: window %d: uploaded %s to %s%s\n", job.index, f.c_str(),
                     job.upload.c_str(), Basename(f).c_str());
      } else {
        std::fprintf(stderr, "gsys: window %d: upload of %s failed: %s (the file stays on disk)\n",
                     job.index, f.c_str(), up.message().c_str());
        rc = 2;
      }
    }
  }
  Respond(job.response_file, {{"report", job.report_path}, {"stats", job.stats ? "1" : "0"}});
  std::fflush(stderr);
  return rc;
}

Status Finalizer::Start(const WindowJob& job) {
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    ++failures_;
    return Error(StatusCode::kInternal,
                 std::string("gsys: cannot fork the finalizer: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Not part of the target's signals: a forwarded SIGTERM must not cut a report short.
    sigset_t none;
    sigemptyset(&none);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    _exit(RunWindowJob(job, hooks_));
  }
  children_[pid] = job;
  return OkStatus();
}

bool Finalizer::OnChildExit(pid_t pid, int exit_code) {
  auto it = children_.find(pid);
  if (it == children_.end()) return false;
  if (exit_code != 0) ++failures_;
  ++done_;
  children_.erase(it);
  return true;
}

int Finalizer::WaitAll(int64_t deadline_ns) {
  while (!children_.empty()) {
    for (auto it = children_.begin(); it != children_.end();) {
      int status = 0;
      pid_t r = waitpid(it->first, &status, WNOHANG);
      if (r == it->first || (r < 0 && errno == ECHILD)) {
        int code = r == it->first && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
        if (code != 0) ++failures_;
        ++done_;
        it = children_.erase(it);
      } else {
        ++it;
      }
    }
    if (children_.empty() || launcher::MonotonicNowNs() >= deadline_ns) break;
    timespec ts{0, 20 * 1000 * 1000};
    nanosleep(&ts, nullptr);
  }
  return static_cast<int>(children_.size());
}

}  // namespace gsys::serving
