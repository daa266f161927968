// SPDX-License-Identifier: Apache-2.0
// The table of capture options (capture_options.h): one row per option, in help order.
#include "cli/capture_options.h"

#include <algorithm>
#include <csignal>

#include "cli/capture_option_values.h"
#include "common/check.h"
#include "common/strings.h"
#include "export/exporter.h"
#include "launcher/env_var_list.h"

namespace gsys::cli {
namespace {

constexpr unsigned kP = static_cast<unsigned>(CaptureVerb::kProfile);
constexpr unsigned kL = static_cast<unsigned>(CaptureVerb::kLaunch);
constexpr unsigned kS = static_cast<unsigned>(CaptureVerb::kStart);
constexpr unsigned kW = static_cast<unsigned>(CaptureVerb::kWrap);
// What the target's processes record: fixed when the tree starts (profile, launch, wrap).
constexpr unsigned kTarget = kP | kL | kW;

// Why `gsys start` accepts a system-scope option of nsys start but cannot apply it.
constexpr const char* kFixedAtLaunch =
    "the session's capture settings were fixed when it started (give it to gsys launch)";
constexpr const char* kStartWindows =
    "windows of a live session are written as new reports, each with its stats summaries";

struct Value {
  std::string text;
  std::string flag;  // "--trace"
  CaptureVerb verb;
};

using Apply = Status (*)(const Value& v, CaptureOptions* o);

struct Option {
  FlagSpec flag;
  unsigned verbs;                  // the verbs that take it
  const char* default_value;       // applied before the given values; nullptr = none
  Apply apply;
  unsigned ignored_in = 0;         // verbs that accept it but cannot apply it...
  const char* ignored_why = nullptr;  // ...because of this
  const char* live_default = nullptr;  // launch/wrap default when it differs
};

bool BoolOf(const Value& v) { return ParseBool(v.text).value_or(false); }

const std::vector<Option>& Table() {
  static const std::vector<Option> kTable = {
      {{"trace", 't', FlagValue::kRequired, "LIST",
        "cuda, nvtx, osrt, cublas, cudnn, mpi or none (cublas/cudnn imply cuda); nsys's other\n"
        "values are accepted with a note saying gsys does not record them."},
       kTarget, "cuda,nvtx,osrt",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->trace, ParseTraceList(v.text, v.verb == CaptureVerb::kWrap,
                                                        &o->notes));
         return OkStatus();
       }},
      {{"mpi-impl", 0, FlagValue::kRequired, "openmpi|mpich",
        "Accepted for nsys compatibility: -t mpi detects Open MPI or MPICH itself."},
       kTarget, nullptr,
       +[](const Value& v, CaptureOptions*) -> Status {
         if (v.text != "openmpi" && v.text != "mpich") return BadValue(v.flag, v.text, "openmpi or mpich");
         return OkStatus();
       }},
      {{"output", 'o', FlagValue::kRequired, "NAME",
        "Report name: %q{VAR} %h %p %n %% expand, .gsys-rep is appended (replacing .nsys-rep);\n"
        "launch/start: or a folder (ends with /). Default: report%n (profile); for windows\n"
        "gsys_<host>_<rank|pid>_<UTC time> in the current folder."},
       kP | kL | kS, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "a report name");
         o->output = v.text;
         return OkStatus();
       }},
      {{"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing report."},
       kP | kS, "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->force_overwrite = BoolOf(v);
         return OkStatus();
       },
       kS, kStartWindows},
      {{"delay", 'y', FlagValue::kRequired, "SECONDS", "Start collecting after this delay."},
       kP, "0",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->delay_ns, ParseSecondsNs(v.flag, v.text));
         return OkStatus();
       }},
      {{"duration", 'd', FlagValue::kRequired, "SECONDS",
        "Collect for this long (0: until the end), then end the session (profile, see --kill)\n"
        "or close the window (start)."},
       kP | kS, "0",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->duration_ns, ParseSecondsNs(v.flag, v.text));
         return OkStatus();
       }},
      {{"capture-range", 'c', FlagValue::kRequired, "none|nvtx|cudaProfilerApi",
        "Collect only inside a range (nvtx needs -p); launch: a window at each range."},
       kP | kL | kS, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "none" && v.text != "nvtx" && v.text != "cudaProfilerApi") {
           return BadValue(v.flag, v.text, "none, nvtx or cudaProfilerApi");
         }
         o->capture_range = v.text == "none" ? "" : v.text;
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"nvtx-capture", 'p', FlagValue::kRequired, "RANGE[@DOMAIN]",
        "NVTX range that opens the capture (@* = any domain)."},
       kP | kL, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "RANGE[@DOMAIN]");
         o->nvtx_capture = v.text;
         return OkStatus();
       }},
      {{"capture-range-end", 0, FlagValue::kRequired, "MODE",
        "stop, stop-shutdown (profile's default), repeat[:N], repeat-shutdown:N or none."},
       kP | kS, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_RETURN_IF_ERROR(ValidateRangeEnd(v.text, &o->notes));
         o->capture_range_end = v.text;
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"cuda-graph-trace", 0, FlagValue::kRequired, "graph|node",
        "CUDA graphs as one range per launch (graph) or their kernels (node, default)."},
       kTarget, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "graph" && v.text != "node") return BadValue(v.flag, v.text, "graph or node");
         o->cuda_graph_trace = v.text;
         return OkStatus();
       }},
      {{"cuda-memory-usage", 0, FlagValue::kBool, "", "Record CUDA allocations and frees."},
       kTarget, "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->cuda_memory_usage = BoolOf(v);
         return OkStatus();
       }},
      {{"pytorch", 0, FlagValue::kRequired, "autograd-nvtx|autograd-shapes-nvtx|none",
        "PyTorch autograd ops as NVTX ranges (shapes too), no script change."},
       kTarget, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "none" && v.text != "autograd-nvtx" && v.text != "autograd-shapes-nvtx") {
           return BadValue(v.flag, v.text, "autograd-nvtx, autograd-shapes-nvtx or none");
         }
         o->pytorch = v.text == "none" ? "" : v.text;
         return OkStatus();
       }},
      {{"backtrace", 'b', FlagValue::kRequired, "cuda|auto|fp|lbr|dwarf|none",
        "cuda: stack at every CUDA API call (= --cudabacktrace=all:0). Unwind methods are\n"
        "accepted; gsys always unwinds with DWARF CFI."},
       kTarget | kS, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         const std::string& bt = v.text;
         if (bt == "cuda") {
           o->cuda_backtrace = "all:0";
         } else if (bt != "none" && bt != "auto" && bt != "fp" && bt != "lbr" && bt != "dwarf") {
           return BadValue(v.flag, bt, "cuda, auto, fp, lbr, dwarf or none");
         } else if (bt != "none" && bt != "auto") {
           o->notes.push_back("--backtrace=" + bt + ": gsys always unwinds with DWARF CFI (.eh_frame)");
         }
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"cudabacktrace", 0, FlagValue::kRequired, "all|kernel|memory|sync|other[:NS][,...]",
        "Native stack at CUDA API calls of these kinds lasting at least NS (default 1000) ns;\n"
        "none: off."},
       kTarget, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->cuda_backtrace, ParseCudaBacktrace(v.text));
         return OkStatus();
       }},
      {{"python-backtrace", 0, FlagValue::kRequired, "cuda|none",
        "Python stack at the CUDA API calls that get a native stack (CPython 3.10-3.13)."},
       kTarget, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::string py = v.text;
         if (py == "lbr" || py == "fp" || py == "dwarf" || py == "true" || py == "auto") {
           o->notes.push_back("--python-backtrace=" + py + " means 'cuda' in gsys: the Python "
                              "stack at CUDA API calls");
           py = "cuda";
         }
         if (py != "cuda" && py != "none" && py != "false") return BadValue(v.flag, py, "cuda or none");
         o->python_backtrace = py == "cuda";
         return OkStatus();
       }},
      {{"sample", 's', FlagValue::kRequired, "process-tree|none",
        "Periodic CPU stack samples of every thread of the target's processes."},
       kTarget | kS, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::string s = v.text;
         if (s == "system-wide") {
           o->notes.push_back("--sample=system-wide needs privileges; gsys samples the process tree");
           s = "process-tree";
         }
         if (s != "process-tree" && s != "none") return BadValue(v.flag, s, "process-tree or none");
         o->sample = s == "process-tree";
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"sampling-frequency", 0, FlagValue::kRequired, "HZ",
        "CPU samples per second of CPU time per thread, 100..8000."},
       kTarget, "1000",
       +[](const Value& v, CaptureOptions* o) -> Status {
         auto hz = ParseInt64(v.text);
         if (!hz || *hz < 100 || *hz > 8000) return BadValue(v.flag, v.text, "100..8000 Hz");
         o->sampling_frequency = static_cast<int>(*hz);
         return OkStatus();
       }},
      {{"cpuctxsw", 0, FlagValue::kRequired, "process-tree|none",
        "Thread context switches where the kernel permits (else one notice)."},
       kTarget | kS, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::string s = v.text == "system-wide" ? "process-tree" : v.text;
         if (s != "process-tree" && s != "none") return BadValue(v.flag, v.text, "process-tree or none");
         o->cpuctxsw = s == "process-tree";
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"osrt-threshold", 0, FlagValue::kRequired, "NS",
        "Do not record OS runtime calls shorter than this."},
       kTarget, "1000",
       +[](const Value& v, CaptureOptions* o) -> Status {
         auto n = ParseInt64(v.text);
         if (!n || *n < 0) return BadValue(v.flag, v.text, "nanoseconds");
         o->osrt_threshold_ns = *n;
         return OkStatus();
       }},
      {{"kill", 0, FlagValue::kRequired, "none|sigterm|sigkill|N",
        "Signal sent to the target when the session ends first."},
       kP, "sigterm",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->kill_signal, ParseKillSignal(v.text));
         return OkStatus();
       }},
      {{"wait", 0, FlagValue::kRequired, "primary|all",
        "Wait for the primary process or for all of them."},
       kTarget, "all",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "all" && v.text != "primary") return BadValue(v.flag, v.text, "primary or all");
         o->wait_all = v.text == "all";
         return OkStatus();
       },
       0, nullptr, "primary"},
      {{"stats", 0, FlagValue::kBool, "", "Run gsys stats on the report afterwards."},
       kP | kS, "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->stats = BoolOf(v);
         return OkStatus();
       },
       kS, kStartWindows},
      {{"export", 0, FlagValue::kRequired, "TYPE[,TYPE]",
        "Also export the report (perfetto, chrome, jsonlines, csv, sqlite; none)."},
       kP | kS, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::vector<std::string> names = export_::ExporterNames();
         for (const auto& type : Split(v.text, ',')) {
           if (type == "none") continue;
           if (std::find(names.begin(), names.end(), type) == names.end()) {
             return Error(StatusCode::kInvalidArgument, "bad --export type '" + type + "' (expected " +
                          Join(names, ", ") + " or none)");
           }
           if (std::find(o->exports.begin(), o->exports.end(), type) == o->exports.end()) {
             o->exports.push_back(type);
           }
         }
         return OkStatus();
       },
       kS, kStartWindows},
      {{"gpu-metrics-devices", 0, FlagValue::kRequired, "all|none|N[,M]",
        "Sample GPU metrics (NVML) of these GPUs from gsys itself."},
       kP | kS, "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->gpu_metrics_devices.clear();
         o->gpu_metrics = v.text != "none";
         if (v.text == "none" || v.text == "all" || v.text == "cuda-visible") return OkStatus();
         for (const auto& d : Split(v.text, ',')) {
           auto n = ParseInt64(d);
           if (!n || *n < 0 || *n > 255) {
             return BadValue(v.flag, v.text, "all, none or GPU indexes like 0,1");
           }
           o->gpu_metrics_devices.push_back(static_cast<int>(*n));
         }
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"gpu-metrics-frequency", 0, FlagValue::kRequired, "HZ",
        "GPU metrics samples per second (nsys's 10..200000; gsys samples at most 1000)."},
       kP | kS, "10",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->gpu_metrics_frequency, ParseGpuMetricsFrequency(v.text, &o->notes));
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"show-output", 'w', FlagValue::kBool, "", "Show the target's stdout/stderr."},
       kTarget, "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->show_output = BoolOf(v);
         return OkStatus();
       }},
      {{"env-var", 'e', FlagValue::kRequired, "A=B[,C=D]",
        "Set variables for the target (repeatable). A comma starts a new variable only\n"
        "before NAME=, so -e CUDA_VISIBLE_DEVICES=0,1 sets one."},
       kTarget, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(std::vector<std::string> vars, launcher::ParseEnvVarList(v.text));
         o->env.insert(o->env.end(), vars.begin(), vars.end());
         return OkStatus();
       }},
      {{"inherit-environment", 'n', FlagValue::kBool, "", "Pass gsys's environment to the target."},
       kP | kL, "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->inherit_environment = BoolOf(v);
         return OkStatus();
       }},
      {{"stop-on-exit", 'x', FlagValue::kBool, "",
        "End the session when the target exits. false needs -d: the session then lasts\n"
        "until the duration ends (GPU metrics keep sampling)."},
       kP | kS, "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->stop_on_exit = BoolOf(v);
         return OkStatus();
       },
       kS, kFixedAtLaunch},
      {{"session-new", 0, FlagValue::kRequired, "NAME",
        "Name of the live session (%q{VAR} %h %% expand). Default: VERB-<gsys pid>."},
       kL, nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "a session name");
         o->session_new = v.text;
         return OkStatus();
       }},
  };
  return kTable;
}

bool Takes(const Option& opt, CaptureVerb verb) {
  return (opt.verbs & static_cast<unsigned>(verb)) != 0;
}

bool IgnoredIn(const Option& opt, CaptureVerb verb) {
  return (opt.ignored_in & static_cast<unsigned>(verb)) != 0;
}

const char* DefaultFor(const Option& opt, CaptureVerb verb) {
  bool live = verb == CaptureVerb::kLaunch || verb == CaptureVerb::kWrap;
  return live && opt.live_default != nullptr ? opt.live_default : opt.default_value;
}

// The option against the others (what no single value can tell).
Status CheckTogether(CaptureVerb verb, CaptureOptions* o) {
  if (verb == CaptureVerb::kStart) return OkStatus();
  bool cuda = o->Traces("cuda");
  if (o->python_backtrace && o->cuda_backtrace.empty()) {
    o->cuda_backtrace = "all:" + std::to_string(kDefaultCudaBacktraceNs);
    o->notes.push_back("--python-backtrace=cuda turns on --cudabacktrace=all");
  }
  if (!o->cuda_backtrace.empty() && !cuda) {
    return Error(StatusCode::kInvalidArgument, "CUDA backtraces need cuda in --trace");
  }
  if (!o->pytorch.empty() && !o->Traces("nvtx")) {
    return Error(StatusCode::kInvalidArgument, "--pytorch needs nvtx in --trace");
  }
  if (o->capture_range == "cudaProfilerApi" && !cuda) {
    return Error(StatusCode::kInvalidArgument, "-c cudaProfilerApi needs cuda in --trace");
  }
  if (o->capture_range == "nvtx" && !o->Traces("nvtx") && verb == CaptureVerb::kProfile) {
    return Error(StatusCode::kInvalidArgument, "-c nvtx needs nvtx in --trace");
  }
  if (o->capture_range == "nvtx" && o->nvtx_capture.empty()) {
    return Error(StatusCode::kInvalidArgument, "-c nvtx needs -p/--nvtx-capture RANGE[@DOMAIN]");
  }
  if (!o->nvtx_capture.empty() && o->capture_range != "nvtx" && verb == CaptureVerb::kProfile) {
    return Error(StatusCode::kInvalidArgument, "-p/--nvtx-capture needs -c nvtx");
  }
  if (verb == CaptureVerb::kProfile && !o->stop_on_exit && o->duration_ns <= 0) {
    return Error(StatusCode::kInvalidArgument,
                 "-x/--stop-on-exit false needs -d/--duration SECONDS > 0 (the session ends when "
                 "the duration does)");
  }
  return OkStatus();
}

}  // namespace

const char* CaptureVerbName(CaptureVerb verb) {
  switch (verb) {
    case CaptureVerb::kProfile: return "profile";
    case CaptureVerb::kLaunch: return "launch";
    case CaptureVerb::kStart: return "start";
    case CaptureVerb::kWrap: return "wrap";
  }
  return "?";
}

bool CaptureOptions::Traces(const std::string& domain) const {
  return std::find(trace.begin(), trace.end(), domain) != trace.end();
}

std::vector<FlagSpec> CaptureFlagSpecs(CaptureVerb verb) {
  std::vector<FlagSpec> specs;
  for (const Option& opt : Table()) {
    if (!Takes(opt, verb)) continue;
    FlagSpec spec = opt.flag;
    if (IgnoredIn(opt, verb)) {
      spec.help = std::string("Accepted for nsys compatibility and ignored: ") + opt.ignored_why + ".";
    } else if (const char* d = DefaultFor(opt, verb); d != nullptr) {
      spec.help += std::string(" Default: ") + d + ".";
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

Result<CaptureOptions> ReadCaptureOptions(CaptureVerb verb, const ParsedFlags& flags) {
  CaptureOptions o;
  std::string prefix = std::string(CaptureVerbName(verb)) + ": ";
  auto fail = [&](const Status& s) { return Error(s.code(), prefix + s.message()); };
  for (const Option& opt : Table()) {
    if (!Takes(opt, verb)) continue;
    if (const char* d = DefaultFor(opt, verb); d != nullptr) {
      Status ok = opt.apply(Value{d, "--" + opt.flag.long_name, verb}, &o);
      GSYS_CHECK(ok.ok());  // the table's defaults parse
    }
  }
  o.notes.clear();
  for (const Option& opt : Table()) {
    if (!Takes(opt, verb)) continue;
    const std::vector<std::string>& given = flags.All(opt.flag.long_name);
    for (const std::string& text : given) {
      Value v{text, "--" + opt.flag.long_name, verb};
      Status ok = opt.apply(v, &o);
      if (!ok.ok()) return fail(ok);
    }
    if (!given.empty() && IgnoredIn(opt, verb)) {
      o.notes.push_back("--" + opt.flag.long_name + "=" + given.back() +
                        " is accepted and ignored: " + opt.ignored_why);
    }
  }
  Status together = CheckTogether(verb, &o);
  if (!together.ok()) return fail(together);
  return o;
}

std::string CaptureOptionsHelp(CaptureVerb verb, const std::vector<FlagSpec>& verb_flags) {
  std::vector<FlagSpec> specs = CaptureFlagSpecs(verb);
  specs.insert(specs.end(), verb_flags.begin(), verb_flags.end());
  return FlagsHelp(specs);
}

}  // namespace gsys::cli
