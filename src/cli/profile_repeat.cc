// SPDX-License-Identifier: Apache-2.0
#include "cli/profile_repeat.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/exit_codes.h"
#include "cli/live_runner.h"
#include "cli/session_linger.h"
#include "cli/stderr_line.h"
#include "format/session_files.h"
#include "serving/live_session.h"

namespace gsys::cli {
namespace {

// A literal '%' of an already expanded name must stay literal when expanded again.
std::string EscapePercent(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

}  // namespace

Result<int> RunRepeatedRanges(RepeatRun run, serving::ControlFile control) {
  std::unique_ptr<serving::LiveSession> live;
  std::optional<serving::ControlFile> pending(std::move(control));
  auto make_live = [&]() {
    if (live) return;
    serving::LiveSessionOptions o;
    o.session_dir = run.session_dir;
    std::string path = *run.report_path;
    if (path.size() > 9) path.resize(path.size() - 9);  // ".gsys-rep"
    o.naming.output = EscapePercent(path);
    o.naming.host = ThisHostName();
    o.naming.exists = [](const std::string& p) {
      std::error_code ec;
      return std::filesystem::exists(p, ec);
    };
    o.max_repeat = run.max_ranges;
    live = std::make_unique<serving::LiveSession>(std::move(o), std::move(*pending));
    pending.reset();
  };
  bool shut_down = false;
  run.launch.on_tick = [&](int64_t now) {
    make_live();
    live->Tick(now);
    // repeat-shutdown:N, as nsys: after the N-th range the target gets the kill signal.
    if (!shut_down && run.shutdown_after_max && run.max_ranges > 0 &&
        live->range_windows() >= run.max_ranges) {
      shut_down = true;
      std::fprintf(stderr,
                   "gsys: %d capture range(s) recorded (--capture-range-end repeat-shutdown:%d): "
                   "ending the target\n",
                   run.max_ranges, run.max_ranges);
      return true;
    }
    return false;
  };
  run.launch.on_other_child = [&](pid_t pid, int code) {
    if (live) live->OnChildExit(pid, code);
  };
  if (run.linger) HoldEndingSignals();
  auto launched = launcher::Launch(run.launch, run.on_started, run.context);
  if (!launched.ok()) return launched.status();
  if (run.launch.show_output) BeginOwnStderrLine();
  if (run.linger && !launched->session_ended_early) {
    LingerUntil(launched->start_monotonic_ns + run.launch.session_end_after_ns,
                run.launch.stop_request_file);
  }
  make_live();
  int64_t now = launcher::MonotonicNowNs();
  int left = live->Finish(now, now + 600'000'000'000);
  if (live->windows() == 0) {
    std::fprintf(stderr, "gsys: %s; no report written\n",
                 serving::NeverOpenedLine(run.range, live->control()).c_str());
  }
  std::error_code ec;
  if (left == 0 && live->finalizer().failures() == 0 &&
      std::getenv(format::kEnvKeepSession) == nullptr) {
    std::filesystem::remove_all(run.session_dir, ec);
  }
  return TargetExit(launched->exit_code, launched->term_signal, launched->session_ended_early);
}

}  // namespace gsys::cli
