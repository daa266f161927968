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

#include "cli/capture_options.h"
#include "cli/capture_settings.h"
#include "cli/exit_codes.h"
#include "cli/flags.h"
#include "cli/live_runner.h"
#include "cli/profile_repeat.h"
#include "cli/profile_reports.h"
#include "cli/session_linger.h"
#include "cli/stderr_line.h"
#include "cli/subcommand.h"
#include "common/secret_env.h"
#include "common/strings.h"
#include "format/host_facts.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "launcher/capture_env.h"
#include "launcher/env_var_list.h"
#include "launcher/gpu_metrics.h"
#include "launcher/launcher.h"
#include "launcher/output_name.h"
#include "launcher/resolve_output.h"
#include "launcher/sanitizer_runtime.h"
#include "launcher/session_dir.h"
#include "report/import/capture_log.h"
#include "report/import/importer.h"
#include "serving/control_file.h"
#include "serving/range_outcome.h"

extern char** environ;

namespace gsys::cli {

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

Status Bad(const std::string& msg) {
  return Error(StatusCode::kInvalidArgument, "profile: " + msg);
}

std::string HostName() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return host;
}

struct Plan {
  launcher::LaunchOptions launch;
  launcher::CaptureSettings capture;
  // The -o name expanded except %p and the %q{} variables unset for gsys (split_vars): those
  // are set only inside the tree, and each process's values name its report.
  std::string report_pattern;
  std::vector<std::string> split_vars;
  launcher::OutputNameContext names;  // host; pid once the target runs
  std::string report_path;            // the one report (without split_vars), once the pid is known
  bool force = false, stats = false, quiet = false;
  bool gpu_metrics = false;
  launcher::GpuMetricsOptions metrics;
  std::vector<std::string> exports;   // --export types, validated before the target starts
  std::vector<std::string> user_env;  // -e, one NAME=VALUE per variable
  bool stop_on_exit = true;           // false: the session lasts until -y + -d (LingerUntil)
  format::SessionMeta meta;
};

Status BuildPlan(const ParsedFlags& flags, CaptureOptions o, Plan* plan);

class ProfileCommand : public Subcommand {
 public:
  std::string Name() const override { return "profile"; }
  std::string Summary() const override {
    return "Run a command and capture NVTX, OS runtime and CUDA";
  }
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
  if (flags.positionals().empty())
    return Bad("no command given (usage: gsys profile [options] COMMAND)");
  for (const auto& n : c.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
  if (c.gpu_metrics || c.duration_ns > 0) {
    std::fprintf(stderr,
                 "gsys: note: with -Y, -d and --gpu-metrics-devices are accepted and "
                 "ignored: windows are opened and closed by gsys start/stop\n");
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
  o.window_stats = c.stats;  // each window's report, as profile does for its one report
  o.window_exports = c.exports;
  if (!c.capture_range.empty()) c.capture_range_end = "repeat";
  o.options = std::move(c);
  return RunLive(o);
}

// `pattern` (a partial pattern) with `pid` for %p and the empty value for the split variables:
// the report of the processes without them, the name nsys gives the whole run.
std::string NameWith(const Plan& plan, const std::string& pattern, const std::string& pid) {
  launcher::OutputNameContext oc = plan.names;
  oc.pid = pid;
  oc.getenv = [](const std::string&) { return ""; };
  auto name = launcher::ExpandOutputPattern(pattern, oc);  // checked in BuildPlan
  return name.ok() ? *name : pattern;
}

void OnStarted(pid_t pid, void* ctx) {
  auto* plan = static_cast<Plan*>(ctx);
  plan->meta["target_pid"] = std::to_string(pid);
  plan->names.pid = std::to_string(pid);
  plan->report_path = NameWith(*plan, plan->report_pattern, plan->names.pid) + ".gsys-rep";
  plan->meta["output"] = plan->report_path;
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
  auto control = serving::ControlFile::Create(c.session_dir, c.capture_range.empty(),
                                              c.capture_range == "nvtx");
  if (!control.ok())
    return Error(control.status().code(), "profile: " + control.status().message());
  if (!c.capture_range.empty() && StartsWith(c.capture_range_end, "repeat")) {
    RepeatRun run{plan.launch, c.session_dir, 0, OnStarted, &plan, &plan.report_path};
    run.range = {c.capture_range, c.nvtx_capture, c.nvtx_registered_only, {}, false};
    run.linger = !plan.stop_on_exit;
    size_t colon = c.capture_range_end.find(':');
    if (colon != std::string::npos)
      run.max_ranges =
          static_cast<int>(ParseInt64(c.capture_range_end.substr(colon + 1)).value_or(0));
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
  ProfileReports reports;
  reports.session_dir = plan.capture.session_dir;
  reports.pattern = plan.report_pattern;
  reports.split_vars = plan.split_vars;
  reports.names = plan.names;
  reports.force = plan.force;
  reports.stats = plan.stats;
  reports.quiet = plan.quiet;
  reports.exports = plan.exports;
  reports.seconds =
      static_cast<double>(launched->end_monotonic_ns - launched->start_monotonic_ns) / 1e9;
  // The exit code stays the target's (docs/reliability.md): a lost report is reported there.
  (void)WriteProfileReports(reports);
  return TargetExit(launched->exit_code, launched->term_signal, launched->session_ended_early);
}

Status BuildPlan(const ParsedFlags& flags, CaptureOptions o, Plan* plan) {
  if (!o.session_new.empty()) {
    o.notes.push_back("--session-new=" + o.session_new +
                      " names the session only with -Y (a "
                      "profile session is not reachable by gsys start/stop otherwise)");
  }
  if (flags.positionals().empty())
    return Bad("no command given (usage: gsys profile [options] COMMAND)");
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
  plan->quiet = o.quiet;
  plan->exports = o.exports;
  plan->gpu_metrics = o.gpu_metrics;
  plan->metrics.devices = o.gpu_metrics_devices;
  plan->metrics.frequency_hz = o.gpu_metrics_frequency;
  // GSYS_NVML_LIBRARY (tests only) replaces libnvidia-ml.so.1.
  if (const char* lib = std::getenv("GSYS_NVML_LIBRARY")) plan->metrics.nvml_library = lib;
  GSYS_RETURN_IF_ERROR(ToCaptureSettings(o, "profile", &c));
  for (const auto& n : o.quiet ? std::vector<std::string>{} : o.notes) {
    std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
  }
  // Output: everything but %p and the split variables now, those once they are known.
  launcher::OutputNameContext& oc = plan->names;
  oc.host = HostName();
  oc.getenv = [](const std::string& n) { return std::getenv(n.c_str()); };
  // The extension goes before expansion too, so %n looks for free NAME.gsys-rep names.
  std::string pattern = launcher::StripReportExtension(o.output.empty() ? "report%n" : o.output);
  // A %q{VAR} unset for gsys is set inside the tree (torchrun's RANK): one report per value.
  for (const auto& name : launcher::PatternVariables(pattern)) {
    if (std::getenv(name.c_str()) == nullptr) plan->split_vars.push_back(name);
  }
  c.output_vars = Join(plan->split_vars, ",");
  if (c.output_vars.size() >= 500) return Bad("too many or too long %q{} names in --output");
  if (!plan->split_vars.empty() && StartsWith(c.capture_range_end, "repeat")) {
    return Bad("--output %q{" + plan->split_vars[0] +
               "} is not set, and per-process values are "
               "not supported with --capture-range-end=repeat (set it for gsys)");
  }
  launcher::OutputNameContext first = oc;
  first.defer_pid = true;
  first.deferred_vars.insert(plan->split_vars.begin(), plan->split_vars.end());
  std::string session_pid = "gsys" + std::to_string(getpid());
  first.exists = [plan, &session_pid](const std::string& candidate) {
    std::string name = NameWith(*plan, candidate, session_pid);
    std::error_code e;
    return fs::exists(name + ".gsys-rep", e) || fs::exists(name + format::kSessionDirSuffix, e);
  };
  GSYS_ASSIGN_OR_RETURN(std::string base,
                        launcher::ResolveOutputPattern(pattern, first, "profile"));
  base = launcher::StripReportExtension(base);
  std::string session = NameWith(*plan, base, session_pid);
  if (base.empty() || session.empty() || session.back() == '/') {
    return Bad("bad --output '" + o.output + "' (expected a report name)");
  }
  plan->report_pattern = base;
  plan->report_path = NameWith(*plan, base, "") + ".gsys-rep";
  fs::path dir = fs::absolute(fs::path(session)).parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Bad("output directory '" + dir.string() + "' does not exist");
  if (access(dir.c_str(), W_OK) != 0)
    return Error(StatusCode::kIoError,
                 "profile: output directory '" + dir.string() + "' is not writable");
  // Known now only without %p and split variables; otherwise the import refuses it per report.
  bool name_known =
      plan->split_vars.empty() && NameWith(*plan, base, "1") == NameWith(*plan, base, "2");
  if (name_known && fs::exists(plan->report_path, ec) && !plan->force) {
    return Bad("report '" + plan->report_path + "' exists (use -f/--force-overwrite true)");
  }
  c.session_dir = fs::absolute(session + format::kSessionDirSuffix).string();
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
  if (!c.capture_range.empty())
    plan->launch.stop_request_file = c.session_dir + "/" + format::kShutdownRequestFile;
  format::SessionMeta& m = plan->meta;
  m["command_line"] = Join(plan->launch.argv, " ");
  // The target's environment and directory, for the report's META_DATA_CAPTURE and
  // TARGET_INFO_SYSTEM_ENV; secret values never reach the disk (common/secret_env.h).
  m["environment"] = EnvironmentMetaValue(plan->launch.env);
  std::error_code cwd_error;
  m["working_dir"] = std::filesystem::current_path(cwd_error).string();
  m["host"] = oc.host;
  format::RecordHostFacts(&m);
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
  if (!plan->split_vars.empty()) {  // `gsys import` of a kept session splits it the same way
    m["output_vars"] = c.output_vars;
    m["output_pattern"] = plan->report_pattern;
  }
  if (!c.capture_range.empty())
    m["capture_range"] = c.capture_range + (c.nvtx_capture.empty() ? "" : " " + c.nvtx_capture);
  AddImportMeta(o, &m);
  return OkStatus();
}

}  // namespace

std::unique_ptr<Subcommand> MakeProfileCommand() { return std::make_unique<ProfileCommand>(); }

}  // namespace gsys::cli
