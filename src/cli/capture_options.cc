// SPDX-License-Identifier: Apache-2.0
// The table of capture options (capture_options.h): one row per option, in help order.
#include "cli/capture_options.h"

#include <algorithm>
#include <csignal>
#include <cstdint>

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
  unsigned verbs;             // the verbs that take it
  const char* default_value;  // applied before the given values; nullptr = none
  Apply apply;
  unsigned ignored_in = 0;             // verbs that accept it but cannot apply it...
  const char* ignored_why = nullptr;   // ...because of this
  const char* live_default = nullptr;  // launch/wrap default when it differs
};

bool BoolOf(const Value& v) { return ParseBool(v.text).value_or(false); }

// One note: the option is valid nsys and gsys cannot honour it (docs/differences-from-nsys.md).
Status Ignore(const Value& v, CaptureOptions* o, const std::string& why) {
  o->notes.push_back(v.flag + "=" + v.text + " is accepted and ignored: " + why);
  return OkStatus();
}

Status IgnoreIfTrue(const Value& v, CaptureOptions* o, const std::string& why) {
  return BoolOf(v) ? Ignore(v, o, why) : OkStatus();
}

// --pytorch: a comma list of autograd-nvtx|autograd-shapes-nvtx and functions-trace[-shapes].
Status ApplyPytorch(const Value& v, CaptureOptions* o) {
  o->pytorch.clear();
  bool functions = false;
  for (const auto& part : Split(v.text, ',')) {
    if (part == "none") continue;
    if (part == "autograd-nvtx" || part == "autograd-shapes-nvtx") {
      if (!o->pytorch.empty())
        return BadValue(v.flag, v.text, "one of autograd-nvtx, autograd-shapes-nvtx");
      o->pytorch = part;
    } else if (part == "functions-trace" || part == "functions-trace-shapes") {
      if (functions)
        return BadValue(v.flag, v.text, "one of functions-trace, functions-trace-shapes");
      functions = true;
      o->notes.push_back(v.flag + "=" + part +
                         " is accepted and ignored: gsys does not annotate "
                         "Python functions yet (autograd-nvtx records PyTorch's ops)");
    } else {
      return BadValue(v.flag, v.text,
                      "autograd-nvtx, autograd-shapes-nvtx, functions-trace, "
                      "functions-trace-shapes or none, comma-separated");
    }
  }
  return OkStatus();
}

// --cuda-graph-trace graph|node[:host-only|:host-and-device][:nvtx-live|:nvtx-precapture].
Status ApplyGraphTrace(const Value& v, CaptureOptions* o) {
  std::vector<std::string> parts = Split(v.text, ':');
  if (parts[0] != "graph" && parts[0] != "node") {
    return BadValue(v.flag, v.text,
                    "graph or node, optionally :host-only|:host-and-device and "
                    ":nvtx-live|:nvtx-precapture");
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p == "host-and-device" || p == "nvtx-live") continue;
    if (p == "host-only" || p == "nvtx-precapture") {
      o->notes.push_back(v.flag + " suffix ':" + p +
                         "' is accepted and ignored: gsys records "
                         "graphs host-and-device, NVTX as it happens");
      continue;
    }
    return BadValue(v.flag, v.text,
                    "graph or node, optionally :host-only|:host-and-device and "
                    ":nvtx-live|:nvtx-precapture");
  }
  o->cuda_graph_trace = parts[0];
  return OkStatus();
}

const std::vector<Option>& Table() {
  static const std::vector<Option> kTable = {
      {{"trace", 't', FlagValue::kRequired, "LIST",
        "cuda, nvtx, osrt, cublas, cudnn, mpi or none (cublas/cudnn imply cuda); nsys's other\n"
        "values are accepted with a note saying gsys does not record them. start: what the\n"
        "window records, within what gsys launch -t chose (a running tree cannot add one)."},
       kTarget | kS,
       "cuda,nvtx,osrt",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->trace,
                               ParseTraceList(v.text, v.verb == CaptureVerb::kWrap, &o->notes));
         return OkStatus();
       }},
      {{"mpi-impl", 0, FlagValue::kRequired, "openmpi|mpich",
        "Accepted for nsys compatibility: -t mpi detects Open MPI or MPICH itself."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions*) -> Status {
         if (v.text != "openmpi" && v.text != "mpich")
           return BadValue(v.flag, v.text, "openmpi or mpich");
         return OkStatus();
       }},
      {{"output", 'o', FlagValue::kRequired, "NAME",
        "Report name: %q{VAR} %h %p %n %% expand, .gsys-rep is appended (replacing .nsys-rep);\n"
        "profile: a %q{VAR} unset for gsys but set inside the tree (torchrun's RANK) writes\n"
        "one report per value, each process by the value it started with.\n"
        "launch/start: or a folder (ends with /). Default: report%n (profile); for windows\n"
        "gsys_<host>_<rank|pid>_<UTC time> in the current folder."},
       kP | kL | kS,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "a report name");
         o->output = v.text;
         return OkStatus();
       }},
      {{"force-overwrite", 'f', FlagValue::kBool, "", "Overwrite an existing report."},
       kP | kS,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->force_overwrite = BoolOf(v);
         return OkStatus();
       },
       kS,
       kStartWindows},
      {{"delay", 'y', FlagValue::kRequired, "SECONDS", "Start collecting after this delay."},
       kP,
       "0",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->delay_ns, ParseSecondsNs(v.flag, v.text));
         return OkStatus();
       }},
      {{"duration", 'd', FlagValue::kRequired, "SECONDS",
        "Collect for this long (0: until the end), then end the session (profile, see --kill)\n"
        "or close the window (start)."},
       kP | kS,
       "0",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->duration_ns, ParseSecondsNs(v.flag, v.text));
         return OkStatus();
       }},
      {{"capture-range", 'c', FlagValue::kRequired, "none|nvtx|cudaProfilerApi",
        "Collect only inside a range (nvtx needs -p); launch: a window at each range;\n"
        "start: nvtx arms the range -p of gsys launch named, for its next window(s)."},
       kP | kL | kS,
       "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "none" && v.text != "nvtx" && v.text != "cudaProfilerApi") {
           return BadValue(v.flag, v.text, "none, nvtx or cudaProfilerApi");
         }
         o->capture_range = v.text == "none" ? "" : v.text;
         return OkStatus();
       }},
      {{"nvtx-capture", 'p', FlagValue::kRequired, "RANGE[@DOMAIN]",
        "NVTX range that opens the capture (@* = any domain)."},
       kP | kL,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "RANGE[@DOMAIN]");
         o->nvtx_capture = v.text;
         return OkStatus();
       }},
      {{"capture-range-end", 0, FlagValue::kRequired, "MODE",
        "stop, stop-shutdown (profile's default), repeat[:N], repeat-shutdown:N or none;\n"
        "start: stop (default, one window) or repeat[:N]."},
       kP | kS,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_RETURN_IF_ERROR(ValidateRangeEnd(v.text, &o->notes));
         o->capture_range_end = v.text;
         return OkStatus();
       }},
      {{"cuda-graph-trace", 0, FlagValue::kRequired, "graph|node",
        "CUDA graphs as one range per launch (graph) or their kernels (node, default);\n"
        "nsys's :host-only/:host-and-device/:nvtx-* suffixes are accepted."},
       kTarget,
       nullptr,
       ApplyGraphTrace},
      {{"cuda-memory-usage", 0, FlagValue::kBool, "", "Record CUDA allocations and frees."},
       kTarget,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->cuda_memory_usage = BoolOf(v);
         return OkStatus();
       }},
      {{"pytorch", 0, FlagValue::kRequired, "autograd-nvtx|autograd-shapes-nvtx|none",
        "PyTorch autograd ops as NVTX ranges (shapes too), no script change; implies nvtx\n"
        "in --trace. functions-trace[-shapes] is accepted with a note."},
       kTarget,
       "none",
       ApplyPytorch},
      {{"backtrace", 'b', FlagValue::kRequired, "cuda|auto|fp|lbr|dwarf|none",
        "cuda: stack at every CUDA API call (= --cudabacktrace=all:0). Unwind methods are\n"
        "accepted; gsys always unwinds with DWARF CFI."},
       kTarget | kS,
       "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         const std::string& bt = v.text;
         if (bt == "cuda") {
           o->cuda_backtrace = "all:0";
         } else if (bt != "none" && bt != "auto" && bt != "fp" && bt != "lbr" && bt != "dwarf") {
           return BadValue(v.flag, bt, "cuda, auto, fp, lbr, dwarf or none");
         } else if (bt != "none" && bt != "auto") {
           o->notes.push_back("--backtrace=" + bt +
                              ": gsys always unwinds with DWARF CFI (.eh_frame)");
         }
         return OkStatus();
       },
       kS,
       kFixedAtLaunch},
      {{"cudabacktrace", 0, FlagValue::kRequired, "all|kernel|memory|sync|other[:NS][,...]",
        "Native stack at CUDA API calls of these kinds lasting at least NS (default 1000) ns;\n"
        "none: off."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->cuda_backtrace, ParseCudaBacktrace(v.text));
         return OkStatus();
       }},
      {{"python-backtrace", 0, FlagValue::kRequired, "cuda|none",
        "Python stack at the CUDA API calls that get a native stack (CPython 3.10-3.13)."},
       kTarget,
       "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::string py = v.text;
         if (py == "lbr" || py == "fp" || py == "dwarf" || py == "true" || py == "auto") {
           o->notes.push_back("--python-backtrace=" + py +
                              " means 'cuda' in gsys: the Python "
                              "stack at CUDA API calls");
           py = "cuda";
         }
         if (py != "cuda" && py != "none" && py != "false")
           return BadValue(v.flag, py, "cuda or none");
         o->python_backtrace = py == "cuda";
         return OkStatus();
       }},
      {{"sample", 's', FlagValue::kRequired, "process-tree|none",
        "Periodic CPU stack samples of every thread of the target's processes."},
       kTarget | kS,
       "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::string s = v.text;
         if (s == "system-wide") {
           o->notes.push_back(
               "--sample=system-wide needs privileges; gsys samples the process tree");
           s = "process-tree";
         }
         if (s != "process-tree" && s != "none") return BadValue(v.flag, s, "process-tree or none");
         o->sample = s == "process-tree";
         return OkStatus();
       },
       kS,
       kFixedAtLaunch},
      {{"sampling-frequency", 0, FlagValue::kRequired, "HZ",
        "CPU samples per second of CPU time per thread, 100..8000."},
       kTarget,
       "1000",
       +[](const Value& v, CaptureOptions* o) -> Status {
         auto hz = ParseInt64(v.text);
         if (!hz || *hz < 100 || *hz > 8000) return BadValue(v.flag, v.text, "100..8000 Hz");
         o->sampling_frequency = static_cast<int>(*hz);
         return OkStatus();
       }},
      {{"cpuctxsw", 0, FlagValue::kRequired, "process-tree|none",
        "Thread context switches where the kernel permits (else one notice)."},
       kTarget | kS,
       "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::string s = v.text == "system-wide" ? "process-tree" : v.text;
         if (s != "process-tree" && s != "none")
           return BadValue(v.flag, v.text, "process-tree or none");
         o->cpuctxsw = s == "process-tree";
         return OkStatus();
       },
       kS,
       kFixedAtLaunch},
      {{"osrt-threshold", 0, FlagValue::kRequired, "NS",
        "Do not record OS runtime calls shorter than this."},
       kTarget,
       "1000",
       +[](const Value& v, CaptureOptions* o) -> Status {
         auto n = ParseInt64(v.text);
         if (!n || *n < 0) return BadValue(v.flag, v.text, "nanoseconds");
         o->osrt_threshold_ns = *n;
         return OkStatus();
       }},
      {{"kill", 0, FlagValue::kRequired, "none|sigterm|sigkill|N",
        "Signal sent to the target when the session ends first."},
       kP,
       "sigterm",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->kill_signal, ParseKillSignal(v.text));
         return OkStatus();
       }},
      {{"wait", 0, FlagValue::kRequired, "primary|all",
        "Wait for the primary process or for all of them."},
       kTarget,
       "all",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "all" && v.text != "primary")
           return BadValue(v.flag, v.text, "primary or all");
         o->wait_all = v.text == "all";
         return OkStatus();
       },
       0,
       nullptr,
       "primary"},
      {{"quiet", 'q', FlagValue::kNone, "",
        "Print only warnings and errors: no summary of the report, no notes, no --stats\n"
        "console lines (gsys's own messages; the target's output is untouched)."},
       kP,
       nullptr,
       +[](const Value&, CaptureOptions* o) -> Status {
         o->quiet = true;
         return OkStatus();
       }},
      {{"stats", 0, FlagValue::kBool, "", "Run gsys stats on the report afterwards."},
       kP | kS,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->stats = BoolOf(v);
         return OkStatus();
       }},
      {{"export", 0, FlagValue::kRequired, "TYPE[,TYPE]",
        "Also export the report (perfetto, chrome, jsonlines, csv, sqlite; none)."},
       kP | kS,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         std::vector<std::string> names = export_::ExporterNames();
         for (const auto& type : Split(v.text, ',')) {
           if (type == "none") continue;
           if (std::find(names.begin(), names.end(), type) == names.end()) {
             return Error(
                 StatusCode::kInvalidArgument,
                 "bad --export type '" + type + "' (expected " + Join(names, ", ") + " or none)");
           }
           if (std::find(o->exports.begin(), o->exports.end(), type) == o->exports.end()) {
             o->exports.push_back(type);
           }
         }
         return OkStatus();
       }},
      {{"gpu-metrics-devices", 0, FlagValue::kRequired, "all|none|N[,M]",
        "Sample GPU metrics (NVML) of these GPUs from gsys itself."},
       kP | kS,
       "none",
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
       kS,
       kFixedAtLaunch},
      {{"gpu-metrics-device", 0, FlagValue::kRequired, "all|none|N[,M]",
        "nsys's older spelling of --gpu-metrics-devices."},
       kP | kS,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->gpu_metrics_devices.clear();
         o->gpu_metrics = v.text != "none";
         if (v.text == "none" || v.text == "all" || v.text == "cuda-visible") return OkStatus();
         for (const auto& d : Split(v.text, ',')) {
           auto n = ParseInt64(d);
           if (!n || *n < 0 || *n > 255)
             return BadValue(v.flag, v.text, "all, none or GPU indexes like 0,1");
           o->gpu_metrics_devices.push_back(static_cast<int>(*n));
         }
         return OkStatus();
       },
       kS,
       kFixedAtLaunch},
      {{"gpu-metrics-frequency", 0, FlagValue::kRequired, "HZ",
        "GPU metrics samples per second (nsys's 10..200000; gsys samples at most 1000)."},
       kP | kS,
       "10",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->gpu_metrics_frequency,
                               ParseGpuMetricsFrequency(v.text, &o->notes));
         return OkStatus();
       },
       kS,
       kFixedAtLaunch},
      {{"show-output", 'w', FlagValue::kBool, "", "Show the target's stdout/stderr."},
       kTarget,
       "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->show_output = BoolOf(v);
         return OkStatus();
       }},
      {{"env-var", 'e', FlagValue::kRequired, "A=B[,C=D]",
        "Set variables for the target (repeatable). A comma starts a new variable only\n"
        "before NAME=, so -e CUDA_VISIBLE_DEVICES=0,1 sets one."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(std::vector<std::string> vars, launcher::ParseEnvVarList(v.text));
         o->env.insert(o->env.end(), vars.begin(), vars.end());
         return OkStatus();
       }},
      {{"inherit-environment", 'n', FlagValue::kBool, "", "Pass gsys's environment to the target."},
       kP | kL,
       "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->inherit_environment = BoolOf(v);
         return OkStatus();
       }},
      {{"stop-on-exit", 'x', FlagValue::kBool, "",
        "End the session when the target exits. false needs -d: the session then lasts\n"
        "until the duration ends (GPU metrics keep sampling)."},
       kP | kS,
       "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->stop_on_exit = BoolOf(v);
         return OkStatus();
       },
       kS,
       kFixedAtLaunch},
      {{"session-new", 0, FlagValue::kRequired, "NAME",
        "Name of the live session (%q{VAR} %h %% expand; profile: with -Y). Default:\n"
        "VERB-<gsys pid>."},
       kP | kL | kS,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "a session name");
         o->session_new = v.text;
         return OkStatus();
       },
       kS,
       "gsys start opens a window in a session of gsys launch (--session NAME)"},
      // nsys options gsys maps onto its own, or accepts and ignores (with one note each).
      {{"start-later", 'Y', FlagValue::kBool, "",
        "Record nothing until `gsys start` (another shell; `gsys stop` ends the window),\n"
        "as a live session named by --session-new; overrides --delay."},
       kP,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->start_later = BoolOf(v);
         return OkStatus();
       }},
      {{"trace-fork-before-exec", 0, FlagValue::kBool, "",
        "Trace forked children before they exec (gsys always does)."},
       kTarget,
       "false",
       +[](const Value&, CaptureOptions*) -> Status { return OkStatus(); }},
      {{"nvtx-domain-include", 0, FlagValue::kRequired, "LIST",
        "Keep only these NVTX domains (default = the unnamed one)."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->nvtx_domain_include, ParseNameList(v.flag, v.text));
         return OkStatus();
       }},
      {{"nvtx-domain-exclude", 0, FlagValue::kRequired, "LIST",
        "Drop these NVTX domains (default = the unnamed one)."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(o->nvtx_domain_exclude, ParseNameList(v.flag, v.text));
         return OkStatus();
       }},
      {{"sampling-period", 0, FlagValue::kRequired, "EVENTS",
        "nsys's CPU sampling period, 125000..16000000: gsys samples 1e9/EVENTS times a\n"
        "second of CPU time (within 100..8000)."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(int64_t period, ParseIntIn(v.flag, v.text, 125000, 16000000));
         int64_t hz = std::clamp<int64_t>(1'000'000'000 / period, 100, 8000);
         if (hz * period != 1'000'000'000) {
           o->notes.push_back(v.flag + "=" + v.text + " samples " + std::to_string(hz) +
                              " times a second of CPU time");
         }
         o->sampling_frequency = static_cast<int>(hz);
         return OkStatus();
       }},
      {{"samples-per-backtrace", 0, FlagValue::kRequired, "N",
        "1..32; gsys takes a backtrace with every sample."},
       kTarget,
       "1",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(int64_t n, ParseIntIn(v.flag, v.text, 1, 32));
         return n == 1 ? OkStatus() : Ignore(v, o, "gsys takes a backtrace with every sample");
       }},
      {{"cuda-flush-interval", 0, FlagValue::kRequired, "MS",
        "Flush CUDA buffers this often (0: gsys's 200 ms; at most 250)."},
       kTarget,
       "0",
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_ASSIGN_OR_RETURN(int64_t ms, ParseIntIn(v.flag, v.text, 0, 1'000'000'000));
         if (ms > 250) {
           o->notes.push_back(v.flag + "=" + v.text +
                              " flushes every 250 ms: gsys bounds what a "
                              "killed process loses");
           ms = 250;
         }
         o->cuda_flush_ms = static_cast<int>(ms);
         return OkStatus();
       }},
      {{"cuda-trace-all-apis", 0, FlagValue::kBool, "",
        "Also record the trivial CUDA runtime calls nsys and gsys skip by default."},
       kTarget,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         o->cuda_trace_all_apis = BoolOf(v);
         return OkStatus();
       }},
      {{"cuda-um-cpu-page-faults", 0, FlagValue::kBool, "", "Accepted; not recorded yet."},
       kTarget,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         return IgnoreIfTrue(v, o, "gsys does not record unified-memory page faults yet");
       }},
      {{"cuda-um-gpu-page-faults", 0, FlagValue::kBool, "", "Accepted; not recorded yet."},
       kTarget,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         return IgnoreIfTrue(v, o, "gsys does not record unified-memory page faults yet");
       }},
      {{"cuda-event-trace", 0, FlagValue::kRequired, "auto|true|false",
        "Accepted; not recorded yet."},
       kTarget,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "auto" && !ParseBool(v.text))
           return BadValue(v.flag, v.text, "auto, true or false");
         if (v.text == "false" || ParseBool(v.text) == false) return OkStatus();
         return Ignore(v, o, "gsys does not record device-side CUDA event completions yet");
       }},
      {{"flush-on-cudaprofilerstop", 0, FlagValue::kBool, "",
        "Accepted: gsys's CUDA buffers are flushed on their period (--cuda-flush-interval)."},
       kTarget,
       "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (BoolOf(v)) return OkStatus();
         return Ignore(v, o,
                       "gsys flushes CUDA buffers on their period, whatever cudaProfilerStop does");
       }},
      {{"python-sampling", 0, FlagValue::kBool, "", "Accepted; not recorded yet."},
       kTarget,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         return IgnoreIfTrue(v, o,
                             "gsys takes no periodic Python samples yet (-s process-tree "
                             "samples native stacks; --python-backtrace=cuda gives Python stacks "
                             "at CUDA calls)");
       }},
      {{"python-sampling-frequency", 0, FlagValue::kRequired, "HZ",
        "1..2000; accepted, not used yet."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_RETURN_IF_ERROR(ParseIntIn(v.flag, v.text, 1, 2000).status());
         return Ignore(v, o, "gsys takes no periodic Python samples yet");
       }},
      {{"python-functions-trace", 0, FlagValue::kRequired, "JSON", "Accepted; not used yet."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "a JSON file");
         return Ignore(v, o, "gsys does not annotate Python functions yet");
       }},
      {{"dask", 0, FlagValue::kRequired, "functions-trace|none", "Accepted; not used yet."},
       kTarget,
       "none",
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text != "functions-trace" && v.text != "none")
           return BadValue(v.flag, v.text, "functions-trace or none");
         return v.text == "none" ? OkStatus()
                                 : Ignore(v, o, "gsys does not annotate Python functions yet");
       }},
      {{"osrt-backtrace-threshold", 0, FlagValue::kRequired, "NS", "Accepted; not used yet."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_RETURN_IF_ERROR(ParseIntIn(v.flag, v.text, 0, INT64_MAX).status());
         return Ignore(v, o, "gsys does not record OS runtime backtraces yet");
       }},
      {{"osrt-backtrace-depth", 0, FlagValue::kRequired, "N", "Accepted; not used yet."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_RETURN_IF_ERROR(ParseIntIn(v.flag, v.text, 1, 1024).status());
         return Ignore(v, o, "gsys does not record OS runtime backtraces yet");
       }},
      {{"osrt-backtrace-stack-size", 0, FlagValue::kRequired, "BYTES", "Accepted; not used yet."},
       kTarget,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         GSYS_RETURN_IF_ERROR(ParseIntIn(v.flag, v.text, 1, INT64_MAX).status());
         return Ignore(v, o, "gsys does not record OS runtime backtraces yet");
       }},
      {{"gpu-metrics-set", 0, FlagValue::kRequired, "ALIAS|file:CFG", "Accepted; gsys reads NVML."},
       kP | kS,
       nullptr,
       +[](const Value& v, CaptureOptions* o) -> Status {
         if (v.text.empty()) return BadValue(v.flag, v.text, "a metric set alias");
         return Ignore(v, o, "gsys samples its NVML/GPM metrics, not nsys's PM counter sets");
       },
       kS,
       kFixedAtLaunch},
      {{"gpuctxsw", 0, FlagValue::kBool, "", "Accepted; not recorded yet."},
       kP | kS,
       "false",
       +[](const Value& v, CaptureOptions* o) -> Status {
         return IgnoreIfTrue(v, o, "gsys does not record GPU context switches yet");
       },
       kS,
       kFixedAtLaunch},
      {{"resolve-symbols", 0, FlagValue::kBool, "", "Accepted: gsys resolves symbols at import."},
       kP | kS,
       "true",
       +[](const Value& v, CaptureOptions* o) -> Status {
         return BoolOf(v) ? OkStatus() : Ignore(v, o, "gsys resolves symbols when it imports");
       },
       kS,
       kFixedAtLaunch},
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
  if (!o->pytorch.empty() && !o->Traces("nvtx")) o->trace.push_back("nvtx");  // as nsys
  if (!o->nvtx_domain_include.empty() && !o->nvtx_domain_exclude.empty()) {
    return Error(StatusCode::kInvalidArgument,
                 "--nvtx-domain-include and --nvtx-domain-exclude cannot be combined");
  }
  if ((!o->nvtx_domain_include.empty() || !o->nvtx_domain_exclude.empty()) && !o->Traces("nvtx")) {
    return Error(StatusCode::kInvalidArgument,
                 "--nvtx-domain-include/-exclude need nvtx in --trace");
  }
  if (o->start_later) o->delay_ns = 0;  // -Y overrides --delay (nsys)
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
    case CaptureVerb::kProfile:
      return "profile";
    case CaptureVerb::kLaunch:
      return "launch";
    case CaptureVerb::kStart:
      return "start";
    case CaptureVerb::kWrap:
      return "wrap";
  }
  return "?";
}

void AddImportMeta(const CaptureOptions& o, std::map<std::string, std::string>* meta) {
  if (!o.nvtx_domain_include.empty())
    (*meta)["nvtx_domain_include"] = Join(o.nvtx_domain_include, ",");
  if (!o.nvtx_domain_exclude.empty())
    (*meta)["nvtx_domain_exclude"] = Join(o.nvtx_domain_exclude, ",");
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
      spec.help =
          std::string("Accepted for nsys compatibility and ignored: ") + opt.ignored_why + ".";
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
