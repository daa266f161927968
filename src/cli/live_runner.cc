// SPDX-License-Identifier: Apache-2.0
#include "cli/live_runner.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "cli/capture_settings.h"
#include "cli/exit_codes.h"
#include "cli/live_requests.h"
#include "cli/stats_summary.h"
#include "cli/stderr_line.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "common/secret_env.h"
#include "common/strings.h"
#include "export/exporter.h"
#include "format/host_facts.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "launcher/launcher.h"
#include "launcher/sanitizer_runtime.h"
#include "serving/live_session.h"
#include "serving/range_outcome.h"
#include "serving/serving_config.h"
#include "serving/session_registry.h"
#include "serving/window_scheduler.h"
#include "upload/upload.h"

extern char** environ;

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

namespace fs = std::filesystem;

Status Upload(const std::string& path, const std::string& dest) {
  upload::UploadOptions options;
  options.log = [](const std::string& line) { std::fprintf(stderr, "gsys: %s\n", line.c_str()); };
  options.follow_links = false;  // the window report this run wrote; a link there was planted
  return upload::UploadFile(path, dest, options);
}

serving::EnvMap Environment() {
  serving::EnvMap env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

std::vector<std::string> InheritedEnv() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

bool OnTick(LiveState& st, int64_t now) {
  if (st.schedule) {
    switch (st.schedule->Tick(now, st.scheduled_open)) {
      case serving::WindowScheduler::Action::kOpen:
        st.scheduled_open = st.live->Open(now);
        break;
      case serving::WindowScheduler::Action::kClose:
        st.scheduled_open = false;
        st.live->Close(now);
        if (st.schedule->finished() && st.options->kill_signal != 0) st.end_requested = true;
        break;
      case serving::WindowScheduler::Action::kNone:
        break;
    }
  }
  st.live->Tick(now);
  for (const auto& r : serving::TakeRequests(st.dir)) HandleRequest(st, r, now);
  return st.end_requested;
}

void OnSignal(LiveState& st, int sig) {
  int64_t now = launcher::MonotonicNowNs();
  if (sig == SIGUSR2) {
    if (st.live->window_open()) {
      st.scheduled_open = false;
      st.live->Close(now);
    } else {
      serving::WindowRequest w;
      w.duration_ns = st.options->schedule ? st.options->duration_ns : 0;
      st.live->Open(now, w);
    }
    return;
  }
  std::fprintf(stderr,
               "gsys: signal %d forwarded to the target; an open window is finalized "
               "within %.0f s of its exit\n",
               sig, Seconds(st.options->shutdown_timeout_ns));
}

format::SessionMeta MakeMeta(const LiveRunOptions& o, int64_t now) {
  format::SessionMeta m;
  m["command_line"] = Join(o.argv, " ");
  // As profile records them (profile_command.cc): secret values redacted before the disk.
  m["environment"] =
      EnvironmentMetaValue(o.inherit_environment ? InheritedEnv() : std::vector<std::string>{});
  std::error_code cwd_error;
  m["working_dir"] = fs::current_path(cwd_error).string();
  m["host"] = ThisHostName();
  format::RecordHostFacts(&m);
  m["tool_version"] = GSYS_VERSION;
  m["trace"] = o.options.trace.empty() ? "none" : Join(o.options.trace, ",");
  m["session_start_monotonic_ns"] = std::to_string(now);
  m["session_start_utc_ns"] = std::to_string(launcher::RealtimeNowNs());
  m["osrt_threshold_ns"] = std::to_string(o.options.osrt_threshold_ns);
  m["mode"] = o.verb;
  AddImportMeta(o.options, &m);
  return m;
}

}  // namespace

std::string ThisHostName() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return host;
}

Result<int> RunLive(const LiveRunOptions& o) {
  std::string prefix = "gsys " + o.verb + ": ";
  if (o.argv.empty()) return Error(StatusCode::kInvalidArgument, prefix + "no command given");
  GSYS_ASSIGN_OR_RETURN(std::string executable, launcher::ResolveCommand(o.argv[0]));
  launcher::CaptureSettings capture;
  GSYS_RETURN_IF_ERROR(ToCaptureSettings(o.options, "gsys " + o.verb, &capture));
  capture.sanitizer_needs = launcher::ElfSanitizerNeeds(executable);
  const char* root_env = std::getenv(format::kEnvSessionsDir);
  std::string root = serving::SessionsRoot(root_env ? root_env : "");
  serving::SessionInfo info;
  info.name = o.session_name.empty() ? o.verb + "-" + std::to_string(getpid()) : o.session_name;
  info.pid = getpid();
  info.kind = o.verb;
  info.command = Join(o.argv, " ");
  auto registered = serving::RegisterSession(root, info);
  if (!registered.ok())
    return Error(registered.status().code(), prefix + registered.status().message());
  serving::RegisteredSession session = std::move(*registered);  // claimed until we return
  const std::string* dir = &session.dir;
  capture.session_dir = *dir;
  bool range = !capture.capture_range.empty();
  auto control = serving::ControlFile::Create(*dir, false, capture.capture_range == "nvtx");
  if (!control.ok()) return Error(control.status().code(), prefix + control.status().message());
  int64_t t0 = launcher::MonotonicNowNs();
  GSYS_RETURN_IF_ERROR(format::WriteSessionMeta(*dir, MakeMeta(o, t0)));

  serving::EnvMap env = Environment();
  serving::LiveSessionOptions lso;
  lso.session_dir = *dir;
  lso.upload = o.upload;
  lso.naming.output = o.output;
  lso.naming.host = ThisHostName();
  lso.naming.rank = serving::RankFromEnv(env);
  lso.naming.pid = std::to_string(getpid());
  lso.naming.getenv = [](const std::string& n) { return std::getenv(n.c_str()); };
  lso.naming.exists = [](const std::string& p) {
    std::error_code ec;
    return fs::exists(p, ec);
  };
  lso.hooks.summarize = WriteStatsSummaries;
  lso.hooks.upload = Upload;
  lso.hooks.export_report = [](const std::string& report, const std::string& type) {
    return export_::ExportReport(report, type, "", false);
  };
  lso.hooks.print_stats = [](const std::string& report) {
    auto rc = MakeStatsCommand()->Run({report});
    if (!rc.ok()) std::fprintf(stderr, "%s\n", rc.status().message().c_str());
  };
  lso.max_repeat = o.max_range_windows;
  lso.window_stats = o.window_stats;
  lso.window_exports = o.window_exports;
  {
    // Where `gsys start -o` names may point: the directory of the session's own reports (the
    // current one when the pattern cannot be expanded yet: its windows report that error, and
    // the server must start anyway).
    auto first = serving::WindowReportPath(lso.naming, launcher::RealtimeNowNs());
    std::error_code ec;
    fs::path out_dir =
        first.ok() ? fs::absolute(fs::path(*first)).parent_path() : fs::current_path(ec);
    lso.request_output_dir = fs::weakly_canonical(out_dir, ec).string();
  }

  launcher::LaunchOptions lo;
  lo.argv = o.argv;
  lo.env = launcher::BuildCaptureEnv(
      o.inherit_environment ? InheritedEnv() : std::vector<std::string>{}, o.user_env, capture);
  lo.kill_signal = o.kill_signal != 0 ? o.kill_signal : SIGTERM;
  lo.wait_all = o.wait_all;
  lo.show_output = o.show_output;
  lo.own_signals = {SIGUSR2};

  LiveState st;
  st.options = &o;
  st.launch = &lo;
  st.dir = *dir;
  st.live = std::make_unique<serving::LiveSession>(std::move(lso), std::move(*control));
  if (o.schedule) {
    st.schedule =
        std::make_unique<serving::WindowScheduler>(t0, o.delay_ns, o.duration_ns, o.repeat_ns);
  }
  lo.on_tick = [&st](int64_t now) { return OnTick(st, now); };
  lo.on_signal = [&st](int sig) { OnSignal(st, sig); };
  lo.on_other_child = [&st](pid_t pid, int code) { st.live->OnChildExit(pid, code); };
  char first[64];
  std::snprintf(first, sizeof(first), "first window after %g s", Seconds(o.delay_ns));
  std::fprintf(stderr, "gsys: %s session '%s': %s\n", o.verb.c_str(), info.name.c_str(),
               o.schedule ? first
                          : (range ? "windows from capture ranges"
                                   : "not recording (gsys start opens a window, or SIGUSR2)"));
  auto launched = launcher::Launch(lo);
  int64_t now = launcher::MonotonicNowNs();
  if (!launched.ok()) {
    std::error_code ec;
    fs::remove_all(*dir, ec);
    return launched.status();
  }
  if (lo.show_output) BeginOwnStderrLine();
  int left = st.live->Finish(now, now + o.shutdown_timeout_ns);
  const serving::Finalizer& fin = st.live->finalizer();
  std::error_code ec;
  fs::remove(*dir + "/" + format::kLiveInfoFile, ec);  // no longer a live session
  if (left > 0) {
    std::fprintf(stderr,
                 "gsys: %d window(s) not finalized within %.0f s (GSYS_PROFILE_SHUTDOWN_TIMEOUT); "
                 "the raw capture stays in %s\n",
                 left, Seconds(o.shutdown_timeout_ns), dir->c_str());
  } else if (fin.failures() == 0 && std::getenv(format::kEnvKeepSession) == nullptr) {
    fs::remove_all(*dir, ec);
  }
  if ((range || st.range_armed_ever) && st.live->control().range_windows_opened() == 0) {
    serving::RangeOutcomeInput in{range ? o.options.capture_range : "nvtx",
                                  o.options.nvtx_capture,
                                  capture.nvtx_registered_only,
                                  {},
                                  false};
    std::fprintf(stderr, "gsys: %s\n", serving::NeverOpenedLine(in, st.live->control()).c_str());
  }
  if (st.live->windows() == 0)
    std::fprintf(stderr, "gsys: no capture window was opened; no report written\n");
  return TargetExit(launched->exit_code, launched->term_signal, launched->session_ended_early);
}

}  // namespace gsys::cli
