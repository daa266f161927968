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
#include "cli/flags.h"
#include "cli/profile_stack_flags.h"
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
#include "report/import/capture_log.h"
#include "report/import/importer.h"

extern char** environ;

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

namespace fs = std::filesystem;

// The stack flags (profile_stack_flags.h) go before --help.
std::vector<FlagSpec> WithStackFlags(std::vector<FlagSpec> flags) {
  flags.insert(flags.end() - 1, StackFlags().begin(), StackFlags().end());
  return flags;
}

const std::vector<FlagSpec>& ProfileFlags() {
  static const std::vector<FlagSpec> kFlags = WithStackFlags({
      {"trace", 't', FlagValue::kRequired, "LIST",
       "cuda, nvtx, osrt, cublas, cudnn, mpi or none (cublas/cudnn imply cuda). "
       "Default: cuda,nvtx,osrt."},
      {"mpi-impl", 0, FlagValue::kRequired, "openmpi|mpich",
       "Accepted for nsys compatibility: -t mpi detects Open MPI or MPICH itself."},
      {"output", 'o', FlagValue::kRequired, "NAME",
       "Report name; %q{VAR} %h %p %n %% expand, .gsys-rep is appended (replacing .nsys-rep).\n"
       "Default: report%n."},
      {"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing report."},
      {"delay", 'y', FlagValue::kRequired, "SECONDS", "Start collecting after this delay."},
      {"duration", 'd', FlagValue::kRequired, "SECONDS",
       "Collect for this long, then end the session (see --kill)."},
      {"capture-range", 'c', FlagValue::kRequired, "none|nvtx|cudaProfilerApi",
       "Collect only inside a range (nvtx needs -p)."},
      {"nvtx-capture", 'p', FlagValue::kRequired, "RANGE[@DOMAIN]",
       "NVTX range that opens the capture (@* = any domain)."},
      {"capture-range-end", 0, FlagValue::kRequired, "MODE",
       "stop, stop-shutdown (default), repeat[:N], repeat-shutdown:N or none."},
      {"cuda-graph-trace", 0, FlagValue::kRequired, "graph|node",
       "CUDA graphs as one range per launch (graph) or their kernels (node, default)."},
      {"cuda-memory-usage", 0, FlagValue::kBool, "", "Record CUDA allocations and frees."},
      {"pytorch", 0, FlagValue::kRequired, "autograd-nvtx|autograd-shapes-nvtx|none",
       "PyTorch autograd ops as NVTX ranges (shapes too), no script change."},
      {"kill", 0, FlagValue::kRequired, "none|sigterm|sigkill|N",
       "Signal sent to the target when the session ends first. Default: sigterm."},
      {"wait", 0, FlagValue::kRequired, "primary|all", "Wait for the primary or all processes (default)."},
      {"stats", 0, FlagValue::kBool, "", "Run gsys stats on the report afterwards."},
      {"export", 0, FlagValue::kRequired, "TYPE[,TYPE]",
       "Also export the report (perfetto, chrome, jsonlines, csv, sqlite; none)."},
      {"gpu-metrics-devices", 0, FlagValue::kRequired, "all|none|N[,M]",
       "Sample GPU metrics (NVML) of these GPUs from gsys itself. Default: none."},
      {"gpu-metrics-frequency", 0, FlagValue::kRequired, "HZ",
       "GPU metrics samples per second (1..1000). Default: 10."},
      {"osrt-threshold", 0, FlagValue::kRequired, "NS",
       "Do not record OS runtime calls shorter than this. Default: 1000."},
      {"show-output", 'w', FlagValue::kBool, "", "Show the target's stdout/stderr. Default: true."},
      {"env-var", 'e', FlagValue::kRequired, "A=B[,C=D]",
       "Set variables for the target (repeatable). A comma starts a new variable only\n"
       "before NAME=, so -e CUDA_VISIBLE_DEVICES=0,1 sets one."},
      {"inherit-environment", 'n', FlagValue::kBool, "", "Pass gsys's environment. Default: true."},
      {"stop-on-exit", 'x', FlagValue::kBool, "",
       "End the session when the target exits (default true). false needs -d: the session\n"
       "then lasts until the duration ends (GPU metrics keep sampling)."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  });
  return kFlags;
}

Status Bad(const std::string& msg) { return Error(StatusCode::kInvalidArgument, "profile: " + msg); }

Result<int64_t> ParseSeconds(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(v) || v < 0 || v > 1e7) {
    return Bad("bad --" + flag + " '" + text + "' (expected seconds, e.g. 2 or 0.5)");
  }
  return static_cast<int64_t>(v * 1e9);
}

// The --trace list as GSYS_TRACE spells it. cublas-verbose is accepted as cublas (gsys records
// every call either way); cublas and cudnn imply cuda, as nsys's cub* values do, so kernels can
// be attributed to the library calls that launched them.
Result<std::string> ParseTrace(const std::string& text) {
  static const std::vector<std::string> kKnown = {"cuda", "nvtx", "osrt", "cublas", "cublas-verbose",
                                                  "cudnn", "mpi", "none"};
  std::vector<std::string> kept;
  auto parts = Split(text, ',');
  auto add = [&](const std::string& v) {
    if (std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);
  };
  for (const auto& p : parts) {
    if (p == "none" && parts.size() > 1) return Bad("--trace none must be alone");
    bool known = false;
    for (const auto& k : kKnown) known = known || p == k;
    if (!known) {
      std::string msg = "unknown --trace value '" + p + "' (expected " + Join(kKnown, ", ") + ")";
      if (auto best = ClosestMatch(p, kKnown)) msg += "; did you mean '" + *best + "'?";
      return Bad(msg);
    }
    add(p == "cublas-verbose" ? "cublas" : p);
  }
  for (const char* lib : {"cublas", "cudnn"}) {
    if (std::find(kept.begin(), kept.end(), lib) != kept.end()) add("cuda");
  }
  return Join(kept, ",");
}

Status ValidateRangeEnd(const std::string& v) {
  if (v == "stop" || v == "stop-shutdown" || v == "none" || v == "repeat") return OkStatus();
  for (const char* prefix : {"repeat:", "repeat-shutdown:"}) {
    if (StartsWith(v, prefix)) {
      auto n = ParseInt64(v.substr(std::string(prefix).size()));
      if (n && *n > 0) return OkStatus();
    }
  }
  return Bad("bad --capture-range-end '" + v + "' (expected stop, stop-shutdown, repeat[:N], "
             "repeat-shutdown:N or none)");
}

Result<int> ParseKill(const std::string& v) {
  if (v == "none") return 0;
  if (v == "sigterm") return SIGTERM;
  if (v == "sigkill") return SIGKILL;
  auto n = ParseInt64(v);
  if (n && *n > 0 && *n < 65) return static_cast<int>(*n);
  return Bad("bad --kill '" + v + "' (expected none, sigterm, sigkill or a signal number)");
}

std::string InjectLibraryPath() {
  if (const char* env = std::getenv("GSYS_INJECT_LIBRARY")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (const char* rel : {"../lib/libgsys-inject.so", "../lib/gsys/libgsys-inject.so",
                          "libgsys-inject.so"}) {
    fs::path p = exe.parent_path() / rel;
    if (fs::exists(p, ec)) return fs::weakly_canonical(p, ec).string();
  }
  return "";
}

// gsys's sitecustomize.py (--pytorch): python/ beside the library where it is installed
// (PREFIX/lib/gsys/python), gsys/python beside it in a build tree (build/lib/gsys/python).
std::string PythonDir(const std::string& inject_library) {
  std::error_code ec;
  fs::path dir = fs::path(inject_library).parent_path();
  for (fs::path p : {dir / "python", dir / "gsys" / "python"}) {
    if (fs::exists(p / "sitecustomize.py", ec)) return p.string();
  }
  return "";
}

// The CUDA flags (-t cuda, --cuda-*, --pytorch) into `c`; inject_library must be set.
Status ApplyCudaFlags(const ParsedFlags& flags, launcher::CaptureSettings* c) {
  bool cuda = c->trace.find("cuda") != std::string::npos;
  if (c->capture_range == "cudaProfilerApi" && !cuda) return Bad("-c cudaProfilerApi needs cuda in --trace");
  if (auto v = flags.Last("cuda-graph-trace")) {
    if (*v != "graph" && *v != "node") return Bad("bad --cuda-graph-trace '" + *v + "' (expected graph or node)");
    c->cuda_graph_trace = *v;
  }
  c->cuda_memory_usage = flags.Bool("cuda-memory-usage", false);
  std::string torch = flags.Last("pytorch").value_or("none");
  if (torch != "none" && torch != "autograd-nvtx" && torch != "autograd-shapes-nvtx") {
    return Bad("bad --pytorch '" + torch + "' (expected autograd-nvtx, autograd-shapes-nvtx or none)");
  }
  if (torch == "none") return OkStatus();
  if (c->trace.find("nvtx") == std::string::npos) return Bad("--pytorch needs nvtx in --trace");
  c->python_dir = PythonDir(c->inject_library);
  if (c->python_dir.empty()) return Error(StatusCode::kNotFound, "profile: --pytorch: cannot find python/sitecustomize.py next to libgsys-inject.so");
  c->pytorch = torch;
  return OkStatus();
}

// -t mpi: libgsys-mpi.so next to libgsys-inject.so; --mpi-impl is checked, not needed.
Status ApplyMpiFlags(const ParsedFlags& flags, launcher::CaptureSettings* c) {
  if (auto v = flags.Last("mpi-impl"); v && *v != "openmpi" && *v != "mpich") {
    return Bad("bad --mpi-impl '" + *v + "' (expected openmpi or mpich)");
  }
  std::vector<std::string> trace = Split(c->trace, ',');
  if (std::find(trace.begin(), trace.end(), "mpi") == trace.end()) return OkStatus();
  std::error_code ec;
  fs::path p = fs::path(c->inject_library).parent_path() / "libgsys-mpi.so";
  if (!fs::exists(p, ec)) {
    return Error(StatusCode::kNotFound, "profile: -t mpi: cannot find " + p.string());
  }
  c->mpi_library = p.string();
  return OkStatus();
}

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

Status BuildPlan(const ParsedFlags& flags, Plan* plan);
// --gpu-metrics-devices / --gpu-metrics-frequency. GSYS_NVML_LIBRARY (tests only) replaces
// libnvidia-ml.so.1.
Status ApplyGpuMetricsFlags(const ParsedFlags& flags, Plan* plan) {
  std::string devices = flags.Last("gpu-metrics-devices").value_or("none");
  if (auto f = flags.Last("gpu-metrics-frequency")) {
    auto hz = ParseInt64(*f);
    if (!hz || *hz < 1 || *hz > 1000) return Bad("bad --gpu-metrics-frequency '" + *f + "' (expected 1..1000 Hz)");
    plan->metrics.frequency_hz = static_cast<int>(*hz);
  }
  if (devices == "none") return OkStatus();
  if (devices != "all" && devices != "cuda-visible") {
    for (const auto& d : Split(devices, ',')) {
      auto n = ParseInt64(d);
      if (!n || *n < 0 || *n > 255) return Bad("bad --gpu-metrics-devices '" + devices + "' (expected all, none or GPU indexes like 0,1)");
      plan->metrics.devices.push_back(static_cast<int>(*n));
    }
  }
  if (const char* lib = std::getenv("GSYS_NVML_LIBRARY")) plan->metrics.nvml_library = lib;
  plan->gpu_metrics = true;
  return OkStatus();
}


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
  Plan plan;
  GSYS_RETURN_IF_ERROR(BuildPlan(flags, &plan));
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
    run.linger = !plan.stop_on_exit;
    size_t colon = c.capture_range_end.find(':');
    if (colon != std::string::npos) run.max_ranges = static_cast<int>(ParseInt64(c.capture_range_end.substr(colon + 1)).value_or(0));
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

Status BuildPlan(const ParsedFlags& flags, Plan* plan) {
  if (flags.positionals().empty()) return Bad("no command given (usage: gsys profile [options] COMMAND)");
  plan->launch.argv = flags.positionals();
  GSYS_ASSIGN_OR_RETURN(std::string executable, launcher::ResolveCommand(plan->launch.argv[0]));
  launcher::CaptureSettings& c = plan->capture;
  c.sanitizer_needs = launcher::ElfSanitizerNeeds(executable);
  auto user_env = launcher::ParseEnvVarLists(flags.All("env-var"));
  if (!user_env.ok()) return Bad(user_env.status().message());
  plan->user_env = std::move(*user_env);
  GSYS_ASSIGN_OR_RETURN(c.trace, ParseTrace(flags.Last("trace").value_or("cuda,nvtx,osrt")));
  if (auto v = flags.Last("osrt-threshold")) {
    auto n = ParseInt64(*v);
    if (!n || *n < 0) return Bad("bad --osrt-threshold '" + *v + "' (expected nanoseconds)");
    c.osrt_threshold_ns = *n;
  }
  int64_t delay = 0, duration = 0;
  if (auto v = flags.Last("delay")) {
    GSYS_ASSIGN_OR_RETURN(delay, ParseSeconds("delay", *v));
  }
  if (auto v = flags.Last("duration")) {
    GSYS_ASSIGN_OR_RETURN(duration, ParseSeconds("duration", *v));
  }
  plan->stop_on_exit = flags.Bool("stop-on-exit", true);
  if (!plan->stop_on_exit && duration <= 0) {
    return Bad("-x/--stop-on-exit false needs -d/--duration SECONDS > 0 (the session ends when "
               "the duration does)");
  }
  std::string range = flags.Last("capture-range").value_or("none");
  if (range != "none" && range != "nvtx" && range != "cudaProfilerApi") {
    return Bad("bad --capture-range '" + range + "' (expected none, nvtx or cudaProfilerApi)");
  }
  if (range == "nvtx" && c.trace.find("nvtx") == std::string::npos) return Bad("-c nvtx needs nvtx in --trace");
  if (range == "nvtx" && !flags.Has("nvtx-capture")) return Bad("-c nvtx needs -p/--nvtx-capture RANGE[@DOMAIN]");
  if (flags.Has("nvtx-capture") && range != "nvtx") return Bad("-p/--nvtx-capture needs -c nvtx");
  if (range != "none") c.capture_range = range;
  c.nvtx_capture = flags.Last("nvtx-capture").value_or("");
  if (auto v = flags.Last("capture-range-end")) {
    GSYS_RETURN_IF_ERROR(ValidateRangeEnd(*v));
    c.capture_range_end = *v;
  }
  const char* reg = std::getenv("NSYS_NVTX_PROFILER_REGISTER_ONLY");
  c.nvtx_registered_only = !(reg != nullptr && std::string(reg) == "0");
  GSYS_ASSIGN_OR_RETURN(plan->launch.kill_signal, ParseKill(flags.Last("kill").value_or("sigterm")));
  std::string wait = flags.Last("wait").value_or("all");
  if (wait != "all" && wait != "primary") return Bad("bad --wait '" + wait + "' (expected primary or all)");
  plan->launch.wait_all = wait == "all";
  plan->launch.show_output = flags.Bool("show-output", true);
  plan->force = flags.Bool("force-overwrite", false);
  plan->stats = flags.Bool("stats", false);
  for (const auto& type : Split(flags.Last("export").value_or("none"), ',')) {
    if (type == "none") continue;
    std::vector<std::string> names = export_::ExporterNames();
    if (std::find(names.begin(), names.end(), type) == names.end()) {
      return Bad("bad --export type '" + type + "' (expected " + Join(names, ", ") + " or none)");
    }
    plan->exports.push_back(type);
  }
  GSYS_RETURN_IF_ERROR(ApplyGpuMetricsFlags(flags, plan));
  c.inject_library = InjectLibraryPath();
  if (c.inject_library.empty()) return Error(StatusCode::kNotFound, "profile: cannot find libgsys-inject.so next to gsys (set GSYS_INJECT_LIBRARY)");
  GSYS_RETURN_IF_ERROR(ApplyCudaFlags(flags, &c));
  GSYS_RETURN_IF_ERROR(ApplyMpiFlags(flags, &c));
  std::vector<std::string> notes;
  GSYS_RETURN_IF_ERROR(ApplyStackFlags(flags, &c, &notes));
  for (const auto& n : notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
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
  std::string pattern = launcher::StripReportExtension(flags.Last("output").value_or("report%n"));
  GSYS_ASSIGN_OR_RETURN(std::string base, launcher::ResolveOutputPattern(pattern, oc, "profile"));
  base = launcher::StripReportExtension(base);
  if (base.empty()) {
    return Bad("bad --output '" + flags.Last("output").value_or("") + "' (expected a report name)");
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
  if (!flags.Bool("inherit-environment", true)) {
    plan->launch.env.clear();
  } else {
    for (char** e = environ; *e != nullptr; ++e) plan->launch.env.emplace_back(*e);
  }
  if (!c.capture_range.empty()) plan->launch.stop_request_file = c.session_dir + "/shutdown-request";
  format::SessionMeta& m = plan->meta;
  m["command_line"] = Join(plan->launch.argv, " ");
  // The target's environment and directory, for the report's META_DATA_CAPTURE and
  // TARGET_INFO_SYSTEM_ENV; secret values never reach the disk (common/secret_env.h).
  m["environment"] = Join(RedactEnvironment(plan->launch.env), "\n");
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
  return OkStatus();
}

}  // namespace

std::unique_ptr<Subcommand> MakeProfileCommand() { return std::make_unique<ProfileCommand>(); }

}  // namespace gsys::cli
