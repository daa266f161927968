// SPDX-License-Identifier: Apache-2.0
// `gsys launch [options] [--] CMD [ARGS]`: nsys launch. Starts CMD's process tree injected but
// not recording, as a named live session; `gsys start`/`stop` (another shell), SIGUSR2 to gsys,
// or a capture range (-c) open and close windows, each written as its own report.
#include <csignal>
#include <cstdio>

#include "cli/capture_options.h"
#include "cli/flags.h"
#include "cli/live_runner.h"
#include "cli/subcommand.h"
#include "common/strings.h"

namespace gsys::cli {
namespace {

// The verb's own flags, after the capture options.
const std::vector<FlagSpec>& OwnFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"upload", 0, FlagValue::kRequired, "DEST",
       "Upload each report and its summaries (s3:// or file:///)."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

const std::vector<FlagSpec>& LaunchFlags() {
  static const std::vector<FlagSpec> kFlags = [] {
    std::vector<FlagSpec> f = CaptureFlagSpecs(CaptureVerb::kLaunch);
    f.insert(f.end(), OwnFlags().begin(), OwnFlags().end());
    return f;
  }();
  return kFlags;
}

Status Bad(const std::string& m) { return Error(StatusCode::kInvalidArgument, "launch: " + m); }

class LaunchCommand : public Subcommand {
 public:
  std::string Name() const override { return "launch"; }
  std::string Summary() const override {
    return "Start a command injected but not recording (then gsys start/stop)";
  }
  std::string Help() const override {
    return "usage: gsys launch [options] [--] COMMAND [ARGS...]\n\n"
           "Runs COMMAND with libgsys-inject.so in every process of its tree, recording\n"
           "nothing until a window opens: `gsys start` from another shell (`gsys stop` closes\n"
           "it and prints the report), SIGUSR2 to this gsys (toggles), or a capture range\n"
           "(-c). -p alone names the range `gsys start -c nvtx` arms. Each window becomes its\n"
           "own report; COMMAND keeps running. `gsys status` shows the session, `gsys shutdown`\n"
           "ends the session. The exit code is COMMAND's.\n\n"
           "options:\n" +
           CaptureOptionsHelp(CaptureVerb::kLaunch, OwnFlags());
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("launch", LaunchFlags(), args, true));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (flags.positionals().empty())
      return Bad("no command given (usage: gsys launch [options] COMMAND)");
    GSYS_ASSIGN_OR_RETURN(CaptureOptions c, ReadCaptureOptions(CaptureVerb::kLaunch, flags));
    LiveRunOptions o;
    o.verb = "launch";
    o.argv = flags.positionals();
    o.options = c;
    if (!c.capture_range.empty()) o.options.capture_range_end = "repeat";  // a window per range
    // -p alone: `gsys start -c nvtx` arms the range; the tree stops at each range's end and
    // the session re-arms it for repeat[:N] (cli/live_requests.cc).
    if (c.capture_range.empty() && !c.nvtx_capture.empty()) o.options.capture_range_end = "stop";
    o.session_name = c.session_new;
    o.output = c.output;
    o.upload = flags.Last("upload").value_or("");
    o.show_output = c.show_output;
    o.wait_all = c.wait_all;
    o.user_env = c.env;
    o.inherit_environment = c.inherit_environment;
    o.kill_signal = SIGTERM;  // what `gsys shutdown` sends unless it says otherwise
    for (const auto& n : c.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
    return RunLive(o);
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeLaunchCommand() { return std::make_unique<LaunchCommand>(); }

}  // namespace gsys::cli
