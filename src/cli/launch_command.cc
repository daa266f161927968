// SPDX-License-Identifier: Apache-2.0
// `gsys launch [options] [--] CMD [ARGS]`: nsys launch. Starts CMD's process tree injected but
// not recording, as a named live session; `gsys start`/`stop` (another shell), SIGUSR2 to gsys,
// or a capture range (-c) open and close windows, each written as its own report.
#include <csignal>
#include <cstdio>

#include "cli/flags.h"
#include "cli/live_runner.h"
#include "cli/subcommand.h"
#include "common/strings.h"
#include "launcher/env_var_list.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& LaunchFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"trace", 't', FlagValue::kRequired, "LIST", "cuda, nvtx, osrt or none. Default: cuda,nvtx,osrt."},
      {"session-new", 0, FlagValue::kRequired, "NAME", "Name of the session. Default: launch-<gsys pid>."},
      {"output", 'o', FlagValue::kRequired, "NAME",
       "Default report name or folder for windows (start -o wins). Default: current folder,\n"
       "gsys_<host>_<rank|pid>_<UTC time>."},
      {"capture-range", 'c', FlagValue::kRequired, "none|nvtx|cudaProfilerApi",
       "Open a window for the whole tree at each range (nvtx needs -p)."},
      {"nvtx-capture", 'p', FlagValue::kRequired, "RANGE[@DOMAIN]", "NVTX range that opens a window."},
      {"osrt-threshold", 0, FlagValue::kRequired, "NS", "Do not record OS runtime calls shorter than this."},
      {"cuda-graph-trace", 0, FlagValue::kRequired, "graph|node", "CUDA graphs as one range or their kernels."},
      {"cuda-memory-usage", 0, FlagValue::kBool, "", "Record CUDA allocations and frees."},
      {"upload", 0, FlagValue::kRequired, "DEST", "Upload each report and its summaries (s3:// or file:///)."},
      {"show-output", 'w', FlagValue::kBool, "", "Show the target's stdout/stderr. Default: true."},
      {"wait", 0, FlagValue::kRequired, "primary|all", "Wait for the primary (default) or all processes."},
      {"env-var", 'e', FlagValue::kRequired, "A=B[,C=D]",
       "Set variables for the target (repeatable). A comma starts a new variable only\n"
       "before NAME=, so -e CUDA_VISIBLE_DEVICES=0,1 sets one."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

Status Bad(const std::string& m) { return Error(StatusCode::kInvalidArgument, "launch: " + m); }

Result<std::string> Trace(const std::string& text) {
  for (const auto& p : Split(text, ',')) {
    if (p != "cuda" && p != "nvtx" && p != "osrt" && p != "none") {
      return Bad("unknown --trace value '" + p + "' (expected cuda, nvtx, osrt or none)");
    }
  }
  return text;
}

class LaunchCommand : public Subcommand {
 public:
  std::string Name() const override { return "launch"; }
  std::string Summary() const override { return "Start a command injected but not recording (then gsys start/stop)"; }
  std::string Help() const override {
    return "usage: gsys launch [options] [--] COMMAND [ARGS...]\n\n"
           "Runs COMMAND with libgsys-inject.so in every process of its tree, recording\n"
           "nothing until a window opens: `gsys start` from another shell (`gsys stop` closes\n"
           "it and prints the report), SIGUSR2 to this gsys (toggles), or a capture range\n"
           "(-c). Each window becomes its own report; COMMAND keeps running. `gsys shutdown`\n"
           "ends the session. The exit code is COMMAND's.\n\n"
           "options:\n" +
           FlagsHelp(LaunchFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("launch", LaunchFlags(), args, true));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (flags.positionals().empty()) return Bad("no command given (usage: gsys launch [options] COMMAND)");
    LiveRunOptions o;
    o.verb = "launch";
    o.argv = flags.positionals();
    GSYS_ASSIGN_OR_RETURN(o.capture.trace, Trace(flags.Last("trace").value_or("cuda,nvtx,osrt")));
    o.session_name = flags.Last("session-new").value_or("");
    o.output = flags.Last("output").value_or("");
    o.upload = flags.Last("upload").value_or("");
    std::string range = flags.Last("capture-range").value_or("none");
    if (range != "none" && range != "nvtx" && range != "cudaProfilerApi") {
      return Bad("bad --capture-range '" + range + "' (expected none, nvtx or cudaProfilerApi)");
    }
    if (range == "nvtx" && !flags.Has("nvtx-capture")) return Bad("-c nvtx needs -p/--nvtx-capture RANGE[@DOMAIN]");
    if (range != "none") {
      o.capture.capture_range = range;
      o.capture.capture_range_end = "repeat";  // every range is a window of its own
    }
    o.capture.nvtx_capture = flags.Last("nvtx-capture").value_or("");
    if (auto v = flags.Last("osrt-threshold")) {
      auto n = ParseInt64(*v);
      if (!n || *n < 0) return Bad("bad --osrt-threshold '" + *v + "' (expected nanoseconds)");
      o.capture.osrt_threshold_ns = *n;
    }
    if (auto v = flags.Last("cuda-graph-trace")) {
      if (*v != "graph" && *v != "node") return Bad("bad --cuda-graph-trace '" + *v + "' (expected graph or node)");
      o.capture.cuda_graph_trace = *v;
    }
    o.capture.cuda_memory_usage = flags.Bool("cuda-memory-usage", false);
    o.show_output = flags.Bool("show-output", true);
    std::string wait = flags.Last("wait").value_or("primary");
    if (wait != "primary" && wait != "all") return Bad("bad --wait '" + wait + "' (expected primary or all)");
    o.wait_all = wait == "all";
    auto user_env = launcher::ParseEnvVarLists(flags.All("env-var"));
    if (!user_env.ok()) return Bad(user_env.status().message());
    o.user_env = std::move(*user_env);
    o.kill_signal = SIGTERM;  // what `gsys shutdown` sends unless it says otherwise
    return RunLive(o);
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeLaunchCommand() { return std::make_unique<LaunchCommand>(); }

}  // namespace gsys::cli
