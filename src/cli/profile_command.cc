// SPDX-License-Identifier: Apache-2.0
// `gsys profile [options] [--] CMD [ARGS]`: nsys profile's options (docs/cli/profile.md)
// (CPU side and CUDA): parse and validate everything before the target starts, launch it with
// the capture environment (launcher/), then import the session into the report.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/exit_codes.h"
#include "cli/live_runner.h"
#include "cli/flags.h"
#include "cli/capture_options.h"
#include "cli/capture_settings.h"
#include "cli/subcommand.h"
#include "common/secret_env.h"
#include "common/strings.h"
#include "export/exporter.h"
#include "format/session_meta.h"
#include "launcher/capture_env.h"
#include "launcher/env_var_list.h"
#include "launcher/gpu_metrics.h"
#include "launcher/launcher.h"
#include "launcher/output_name.h"
#include "launcher/resolve_output.h"
#include "launcher/sanitizer_runtime.h"
#include "launcher/session_dir.h"
#include "cli/profile_repeat.h"
#include "cli/session_linger.h"
#include "cli/stderr_line.h"
#include "serving/control_file.h"
#include "serving/range_outcome.h"
#include "report/import/capture_log.h"
#include "report/import/importer.h"

extern char** environ;

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

namespace fs = std::filesystem;

const std::vector<FlagSpec>& ProfileFlags() {
  static const std::vector<FlagSpec> kFlags = [] {
    std::vector<FlagSpec> f = CaptureFlagSpecs(CaptureVerb::kProfile);
    f.push_back({"help", 'h', FlagValue::kNone, "", "Show this help."});
    return f;
  }();
  return kFlags;
}

Status Bad(const std::string& msg) { return Error(StatusCode::kInvalidArgument, "profile: " + msg); }

std::string HostName() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return host;
}

struct Plan {
  launcher::LaunchOptions launch;
  launcher::CaptureSettings capture;
  std::string report_pattern;  // expanded except %p
  std::string report_path;     // final, once the pid is known
  bool force = false, stats = false;
  bool gpu_metrics = false;
  launcher::GpuMetricsOptions metrics;
  std::vector<std::string> exports;  // --export types, validated before the target starts
  std::vector<std::string> user_env;  // -e, one NAME=VALUE per variable
  bool stop_on_exit = true;           // false: the session lasts until -y + -d (LingerUntil)
  format::SessionMeta meta;
};

Status BuildPlan(const ParsedFlags& flags, CaptureOptions o, Plan* plan);

class ProfileCommand : public Subcommand {
 public:
  std::string Name() const override { return "profile"; }
  std::string Summary() const override { return "Run a command and capture NVTX, OS runtime and CUDA"; }
  std::string Help() const override {
    return "usage: gsys profile [options] [--] COMMAND [ARGS...]\n\n"
           "Runs COMMAND with libgsys-inject.so in every process of its tree and writes a\n"
           "report (SQLite in nsys's export schema). The exit code is COMMAND's. SIGINT,\n"
           "SIGTERM and SIGHUP are forwarded to it; the report is still written.\n\n"
           "options:\n" +
           FlagsHelp(ProfileFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override;
};

// -Y/--start-later: the tree runs injected but not recording, as a live session (the one
// `gsys launch` runs); `gsys start` opens the window, `gsys stop` or the tree's exit ends it.
Result<int> RunStartLater(const ParsedFlags& flags, CaptureOptions c) {
  if (flags.positionals().empty()) return Bad("no command given (usage: gsys profile [options] COMMAND)");
  for (const auto& n : c.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
  if (c.stats || !c.exports.empty() || c.gpu_metrics || c.duration_ns > 0) {
    std::fprintf(stderr, "gsys: note: with -Y, --stats, --export, -d and --gpu-metrics-devices "
                 "are accepted and ignored: windows are written as live-session reports\n");
  }
  LiveRunOptions o;
  o.verb = "profile";
  o.argv = flags.positionals();
  o.session_name = c.session_new;
  o.output = c.output.empty() ? "report%n" : c.output;
  o.show_output = c.show_output;
  o.wait_all = c.wait_all;
  o.user_env = c.env;
  o.inherit_environment = c.inherit_environment;
  o.kill_signal = c.kill_signal;
  if (!c.capture_range.empty()) c.capture_range_end = "repeat";
  o.options = std::move(c);
  return RunLive(o);
}

void OnStarted(pid_t pid, void* ctx) {
  auto* plan = static_cast<Plan*>(ctx);
  plan->meta["target_pid"] = std::to_string(pid);
  launcher::OutputNameContext oc;
  oc.pid = std::to_string(pid);
  std::string path = plan->report_pattern;
  size_t at;
  while ((at = path.find("\x02")) != std::string::npos) path.replace(at, 1, oc.pid);
  plan->report_path = path;
  plan->meta["output"] = path;
  (void)format::WriteSessionMeta(plan->capture.session_dir, plan->meta);
}

Result<int> ProfileCommand::Run(const std::vector<std::string>& args) {
  GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("profile", ProfileFlags(), args, true));
  if (flags.Has("help")) {
    std::fputs(Help().c_str(), stdout);
    return 0;
  }
  GSYS_ASSIGN_OR_RETURN(CaptureOptions options, ReadCaptureOptions(CaptureVerb::kProfile, flags));
  if (options.start_later) return RunStartLater(flags, std::move(options));
  Plan plan;
  GSYS_RETURN_IF_ERROR(BuildPlan(flags, std::move(options), &plan));
  std::error_code ec;
  // Exclusive: a second run with the same resolved -o stops here, before its target starts.
  GSYS_ASSIGN_OR_RETURN(launcher::SessionDirLock session_lock,
                        launcher::ClaimSessionDir(plan.capture.session_dir, "profile"));
  GSYS_RETURN_IF_ERROR(format::WriteSessionMeta(plan.capture.session_dir, plan.meta));
  plan.launch.env = launcher::BuildCaptureEnv(plan.launch.env, plan.user_env, plan.capture);
  launcher::GpuMetricsSampler sampler;
  if (plan.gpu_metrics) {
    plan.metrics.session_dir = plan.capture.session_dir;
    std::string why;
    if (!sampler.Start(plan.metrics, &why)) {
      std::fprintf(stderr, "gsys: notice: GPU metrics are not sampled: %s\n", why.c_str());
    }
  }
  // The control page makes -c ranges session-wide (issue 3) and repeat ranges separate reports.
  const launcher::CaptureSettings& c = plan.capture;
  auto control = serving::ControlFile::Create(c.session_dir, c.capture_range.empty(), c.capture_range == "nvtx");
  if (!control.ok()) return Error(control.status().code(), "profile: " + control.status().message());
  if (!c.capture_range.empty() && StartsWith(c.capture_range_end, "repeat")) {
    RepeatRun run{plan.launch, c.session_dir, 0, OnStarted, &plan, &plan.report_path};
    run.range = {c.capture_range, c.nvtx_capture, c.nvtx_registered_only, {}, false};
    run.linger = !plan.stop_on_exit;
    size_t colon = c.capture_range_end.find(':');
    if (colon != std::string::npos) run.max_ranges = static_cast<int>(ParseInt64(c.capture_range_end.substr(colon + 1)).value_or(0));
    run.shutdown_after_max = StartsWith(c.capture_range_end, "repeat-shutdown");
    return RunRepeatedRanges(std::move(run), std::move(*control));
  }
  if (!plan.stop_on_exit) HoldEndingSignals();
  auto launched = launcher::Launch(plan.launch, OnStarted, &plan);
  if (!launched.ok()) {
    sampler.Stop();
    fs::remove_all(plan.capture.session_dir, ec);
    return launched.status();
  }
  if (plan.launch.show_output) BeginOwnStderrLine();
  if (!plan.stop_on_exit && !launched->session_ended_early) {
    launched->end_monotonic_ns =
        LingerUntil(launched->start_monotonic_ns + plan.launch.session_end_after_ns,
                    plan.launch.stop_request_file);
  }
  sampler.Stop();
  // The capture library's messages: it never writes into the program's stderr (capture_log.h).
  for (const auto& line : report::ReadCaptureLog(plan.capture.session_dir)) {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  serving::PrintRangeOutcome({c.capture_range, c.nvtx_capture, c.nvtx_registered_only, {}, false},
                             *control, launched->session_ended_early, plan.launch.stop_request_file,
                             plan.launch.kill_signal);
  report::ImportOptions io;
  io.session_dir = plan.capture.session_dir;
  io.output_path = plan.report_path;
  io.force_overwrite = plan.force;
  io.progress = true;
  auto sum = report::ImportSession(io);
  if (!sum.ok()) {
    if (fs::is_directory(plan.capture.session_dir, ec)) {
      std::fprintf(stderr, "gsys: %s\ngsys: the raw capture is kept in %s (run 'gsys import' on it)\n",
                   sum.status().message().c_str(), plan.capture.session_dir.c_str());
    } else {
      std::fprintf(stderr, "gsys: the session directory %s was removed during capture: no report\n",
                   plan.capture.session_dir.c_str());
    }
    // The exit code stays the target's (docs/reliability.md): a lost report is reported above.
    return TargetExit(launched->exit_code, launched->term_signal,
                      launched->session_ended_early);
  }
  if (std::getenv("GSYS_KEEP_SESSION") == nullptr) fs::remove_all(plan.capture.session_dir, ec);
  double secs = static_cast<double>(launched->end_monotonic_ns - launched->start_monotonic_ns) / 1e9;
  uint64_t drops = sum->counters[report::ImportCounter::kDroppedRecords];
  std::fprintf(stderr, "gsys: generated %s: %s NVTX events, %s OS runtime events, %s dropped, "
               "%llu processes, %.2f s\n", sum->report_path.c_str(),
               GroupThousands(std::to_string(sum->nvtx_events)).c_str(),
               GroupThousands(std::to_string(sum->osrt_events)).c_str(),
               GroupThousands(std::to_string(drops)).c_str(),
               static_cast<unsigned long long>(sum->processes), secs);
  if (sum->cuda_records != 0) {
    std::fprintf(stderr, "gsys: CUDA: %s kernels, %s memory operations, %s API calls\n",
                 GroupThousands(std::to_string(sum->cuda_kernels)).c_str(),
                 GroupThousands(std::to_string(sum->cuda_memory_ops)).c_str(),
                 GroupThousands(std::to_string(sum->cuda_api_calls)).c_str());
  }
  if (sum->cublas_calls + sum->cudnn_calls + sum->mpi_calls != 0) {
    std::fprintf(stderr, "gsys: library calls: %s cuBLAS, %s cuDNN, %s MPI\n",
                 GroupThousands(std::to_string(sum->cublas_calls)).c_str(),
                 GroupThousands(std::to_string(sum->cudnn_calls)).c_str(),
                 GroupThousands(std::to_string(sum->mpi_calls)).c_str());
  }
  if (sum->gpu_metric_rows != 0) {
    std::fprintf(stderr, "gsys: GPU metrics: %s samples\n", GroupThousands(std::to_string(sum->gpu_metric_rows)).c_str());
  }
  if (sum->stack_sites != 0 || sum->cpu_samples != 0) {
    std::fprintf(stderr, "gsys: stacks: %s at traced calls, %s CPU samples\n",
                 GroupThousands(std::to_string(sum->stack_sites)).c_str(),
                 GroupThousands(std::to_string(sum->cpu_samples)).c_str());
  }
  for (const auto& n : sum->notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
  for (const auto& w : sum->warnings) std::fprintf(stderr, "gsys: warning: %s\n", w.c_str());
  for (const auto& type : plan.exports) {
    Status exported = export_::ExportReport(sum->report_path, type, "", plan.force);
    if (!exported.ok()) std::fprintf(stderr, "%s\n", exported.message().c_str());
  }
  if (plan.stats) {
    std::fflush(stderr);
    auto rc = MakeStatsCommand()->Run({sum->report_path});
    if (!rc.ok()) std::fprintf(stderr, "%s\n", rc.status().message().c_str());
  }
  return TargetExit(launched->exit_code, launched->term_signal,
                    launched->session_ended_early);
}

Status BuildPlan(const ParsedFlags& flags, CaptureOptions o, Plan* plan) {
  if (!o.session_new.empty()) {
    o.notes.push_back("--session-new=" + o.session_new + " names the session only with -Y (a "
                      "profile session is not reachable by gsys start/stop otherwise)");
  }
  if (flags.positionals().empty()) return Bad("no command given (usage: gsys profile [options] COMMAND)");
  plan->launch.argv = flags.positionals();
  GSYS_ASSIGN_OR_RETURN(std::string executable, launcher::ResolveCommand(plan->launch.argv[0]));
  launcher::CaptureSettings& c = plan->capture;
  c.sanitizer_needs = launcher::ElfSanitizerNeeds(executable);
  plan->user_env = o.env;
  int64_t delay = o.delay_ns, duration = o.duration_ns;
  plan->stop_on_exit = o.stop_on_exit;
  plan->launch.kill_signal = o.kill_signal;
  plan->launch.wait_all = o.wait_all;
  plan->launch.show_output = o.show_output;
  plan->force = o.force_overwrite;
  plan->stats = o.stats;
  plan->exports = o.exports;
  plan->gpu_metrics = o.gpu_metrics;
  plan->metrics.devices = o.gpu_metrics_devices;
  plan->metrics.frequency_hz = o.gpu_metrics_frequency;
  // GSYS_NVML_LIBRARY (tests only) replaces libnvidia-ml.so.1.
  if (const char* lib = std::getenv("GSYS_NVML_LIBRARY")) plan->metrics.nvml_library = lib;
  GSYS_RETURN_IF_ERROR(ToCaptureSettings(o, "profile", &c));
  for (const auto& n : o.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
  // Output: everything but %p now (\x02 marks it), %p once the target runs.
  launcher::OutputNameContext oc;
  oc.host = HostName();
  oc.pid = "\x02";
  oc.getenv = [](const std::string& n) { return std::getenv(n.c_str()); };
  oc.exists = [](const std::string& base) {
    std::error_code e;
    return fs::exists(base + ".gsys-rep", e) || fs::exists(base + ".gsys-session", e);
  };
  // The extension goes before expansion too, so %n looks for free NAME.gsys-rep names.
  std::string pattern = launcher::StripReportExtension(o.output.empty() ? "report%n" : o.output);
  GSYS_ASSIGN_OR_RETURN(std::string base, launcher::ResolveOutputPattern(pattern, oc, "profile"));
  base = launcher::StripReportExtension(base);
  if (base.empty()) {
    return Bad("bad --output '" + o.output + "' (expected a report name)");
  }
  plan->report_pattern = base + ".gsys-rep";
  plan->report_path = plan->report_pattern;
  fs::path dir = fs::absolute(fs::path(base)).parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Bad("output directory '" + dir.string() + "' does not exist");
  if (access(dir.c_str(), W_OK) != 0) return Error(StatusCode::kIoError, "profile: output directory '" + dir.string() + "' is not writable");
  if (base.find('\x02') == std::string::npos && fs::exists(plan->report_path, ec) && !plan->force) {
    return Bad("report '" + plan->report_path + "' exists (use -f/--force-overwrite true)");
  }
  std::string session = base;
  size_t at;
  while ((at = session.find('\x02')) != std::string::npos) session.replace(at, 1, "gsys" + std::to_string(getpid()));
  c.session_dir = fs::absolute(session + ".gsys-session").string();
  int64_t now = launcher::MonotonicNowNs();
  if (delay > 0) c.capture_start_ns = now + delay;
  if (duration > 0) {
    c.capture_stop_ns = now + delay + duration;
    plan->launch.session_end_after_ns = delay + duration;
  }
  if (!o.inherit_environment) {
    plan->launch.env.clear();
  } else {
    for (char** e = environ; *e != nullptr; ++e) plan->launch.env.emplace_back(*e);
  }
  if (!c.capture_range.empty()) plan->launch.stop_request_file = c.session_dir + "/shutdown-request";
  format::SessionMeta& m = plan->meta;
  m["command_line"] = Join(plan->launch.argv, " ");
  // The target's environment and directory, for the report's META_DATA_CAPTURE and
  // TARGET_INFO_SYSTEM_ENV; secret values never reach the disk (common/secret_env.h).
  m["environment"] = EnvironmentMetaValue(plan->launch.env);
  std::error_code cwd_error;
  m["working_dir"] = std::filesystem::current_path(cwd_error).string();
  m["host"] = oc.host;
  m["tool_version"] = GSYS_VERSION;
  m["trace"] = c.trace;
  m["output"] = plan->report_path;
  m["session_start_monotonic_ns"] = std::to_string(now);
  m["session_start_utc_ns"] = std::to_string(launcher::RealtimeNowNs());
  m["osrt_threshold_ns"] = std::to_string(c.osrt_threshold_ns);
  if (c.capture_start_ns) m["capture_start_ns"] = std::to_string(delay);
  if (c.capture_stop_ns) m["capture_end_ns"] = std::to_string(delay + duration);
  if (!plan->stop_on_exit) m["stop_on_exit"] = "false";
  if (!c.pytorch.empty()) m["pytorch"] = c.pytorch;
  if (!c.capture_range.empty()) m["capture_range"] = c.capture_range + (c.nvtx_capture.empty() ? "" : " " + c.nvtx_capture);
  AddImportMeta(o, &m);
  return OkStatus();
}

}  // namespace

std::unique_ptr<Subcommand> MakeProfileCommand() { return std::make_unique<ProfileCommand>(); }

}  // namespace gsys::cli
