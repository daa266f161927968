// SPDX-License-Identifier: Apache-2.0
// `gsys wrap [--] SERVER_CMD [ARGS]`: the container entrypoint wrapper of serving mode
// (docs/serving.md). Configured only by GSYS_PROFILE* variables (and their LMI_DEBUG_*/NSYS_*
// aliases, serving/serving_config.h). Off: exec's the server (same pid, nothing injected).
// On: runs it as a live session whose windows follow the delay/duration/repeat schedule.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/capture_options.h"
#include "cli/flags.h"
#include "cli/live_runner.h"
#include "cli/subcommand.h"
#include "common/strings.h"
#include "launcher/launcher.h"
#include "serving/serving_config.h"

extern char** environ;

namespace gsys::cli {
namespace {

// GSYS_PROFILE_TRACE (as -t) and GSYS_PROFILE_ARGS through the capture options of wrap.
Status ApplyCaptureArgs(const serving::ServingConfig& c, LiveRunOptions* o) {
  std::vector<std::string> args = {"--trace=" + c.trace};
  args.insert(args.end(), c.profile_args.begin(), c.profile_args.end());
  std::string where = c.profile_args.empty() ? c.trace_variable : "GSYS_PROFILE_ARGS";
  if (where.empty()) where = "GSYS_PROFILE_ARGS";
  auto bad = [&](const Status& s) {
    std::string m = s.message();
    if (StartsWith(m, "wrap: ")) m.erase(0, 6);
    return Error(StatusCode::kInvalidArgument, "gsys wrap: " + where + ": " + m);
  };
  auto parsed = ParseFlags("wrap", CaptureFlagSpecs(CaptureVerb::kWrap), args, false);
  if (!parsed.ok()) return bad(parsed.status());
  if (!parsed->positionals().empty()) {
    return bad(
        Error(StatusCode::kInvalidArgument, "unexpected '" + parsed->positionals()[0] + "'"));
  }
  auto options = ReadCaptureOptions(CaptureVerb::kWrap, *parsed);
  if (!options.ok()) return bad(options.status());
  o->options = std::move(*options);
  o->show_output = o->options.show_output;
  o->wait_all = o->options.wait_all;
  o->user_env = o->options.env;
  for (const auto& n : o->options.notes) {
    std::fprintf(
        stderr, "gsys wrap: warning: %s: %s\n",
        (StartsWith(n, "--trace") ? c.trace_variable : std::string("GSYS_PROFILE_ARGS")).c_str(),
        n.c_str());
  }
  return OkStatus();
}

serving::EnvMap EnvMapOf(char** envp) {
  serving::EnvMap env;
  for (char** e = envp; *e != nullptr; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

int64_t Ns(double seconds) { return static_cast<int64_t>(seconds * 1e9); }

class WrapCommand : public Subcommand {
 public:
  std::string Name() const override { return "wrap"; }
  std::string Summary() const override {
    return "Serving mode: run a server, capture windows set by GSYS_PROFILE* variables";
  }
  std::string Help() const override {
    return "usage: gsys wrap [--] SERVER_COMMAND [ARGS...]\n\n"
           "Container entrypoint wrapper. With GSYS_PROFILE unset or off it execs\n"
           "SERVER_COMMAND (same pid, nothing injected). With GSYS_PROFILE=1 the server runs\n"
           "injected and keeps serving while capture windows open and close on a schedule;\n"
           "each window becomes its own report (with stats summaries), uploaded in the\n"
           "background when GSYS_PROFILE_UPLOAD is set. SIGTERM/SIGINT go to the server at\n"
           "once; an open window is finalized within GSYS_PROFILE_SHUTDOWN_TIMEOUT seconds.\n"
           "The exit code is the server's. SIGUSR2 to gsys opens or closes a window.\n\n"
           "variables (aliases in docs/serving.md):\n"
           "  GSYS_PROFILE                   1/true/yes/on, or 0/false/no/off/empty (default off)\n"
           "  GSYS_PROFILE_DELAY             seconds before the first window (default 30)\n"
           "  GSYS_PROFILE_DURATION          seconds per window (default 600)\n"
           "  GSYS_PROFILE_REPEAT            a new window every N seconds (default: one window)\n"
           "  GSYS_PROFILE_TRACE             -t/--trace of gsys profile (default cuda,nvtx,osrt)\n"
           "  GSYS_PROFILE_OUTPUT            report folder (ends with /) or name pattern\n"
           "  GSYS_PROFILE_UPLOAD            s3://BUCKET/PREFIX/ or file:///DIR/\n"
           "  GSYS_PROFILE_KILL              none (default), sigterm, sigkill or N: after the "
           "window\n"
           "  GSYS_PROFILE_ARGS              more capture options (below), blank-separated\n"
           "  GSYS_PROFILE_SHUTDOWN_TIMEOUT  seconds to finalize after SIGTERM (default 20)\n\n"
           "GSYS_PROFILE_ARGS options:\n" +
           CaptureOptionsHelp(CaptureVerb::kWrap, {});
  }

  Result<int> Run(const std::vector<std::string>& args) override {
    std::vector<std::string> argv = args;
    if (!argv.empty() && (argv[0] == "--help" || argv[0] == "-h")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (!argv.empty() && argv[0] == "--") argv.erase(argv.begin());
    if (argv.empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "gsys wrap: no server command given (usage: gsys wrap [--] COMMAND [ARGS...])");
    }
    GSYS_ASSIGN_OR_RETURN(serving::ParsedServingEnv parsed,
                          serving::ParseServingEnv(EnvMapOf(environ)));
    for (const auto& m : parsed.messages) std::fprintf(stderr, "gsys wrap: %s\n", m.c_str());
    const serving::ServingConfig& c = parsed.config;
    if (!c.enabled) return ExecServer(argv);
    LiveRunOptions o;
    o.verb = "wrap";
    o.argv = argv;
    o.output = c.output;
    o.upload = c.upload;
    o.schedule = true;
    o.delay_ns = Ns(c.delay_s);
    o.duration_ns = Ns(c.duration_s);
    o.repeat_ns = Ns(c.repeat_s);
    o.kill_signal = c.kill_signal;
    o.shutdown_timeout_ns = Ns(c.shutdown_timeout_s);
    GSYS_RETURN_IF_ERROR(ApplyCaptureArgs(c, &o));
    if (o.options.Traces("cuda") && access("/dev/nvidiactl", F_OK) != 0) {
      std::fprintf(stderr,
                   "gsys wrap: note: no NVIDIA driver here (/dev/nvidiactl is missing): CUDA "
                   "capture is skipped, NVTX and OS runtime are recorded\n");
    }
    return RunLive(o);
  }

 private:
  // Profiling off: become the server.
  static Result<int> ExecServer(const std::vector<std::string>& argv) {
    GSYS_ASSIGN_OR_RETURN(std::string path, launcher::ResolveCommand(argv[0]));
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    execv(path.c_str(), cargv.data());
    return Error(StatusCode::kInvalidArgument,
                 "gsys wrap: cannot execute '" + path + "': " + std::strerror(errno));
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeWrapCommand() { return std::make_unique<WrapCommand>(); }

}  // namespace gsys::cli
