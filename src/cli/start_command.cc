// SPDX-License-Identifier: Apache-2.0
// `gsys start [--session NAME] [-d SEC] [-o OUT] [-c nvtx] [-t LIST] [--stats] [--export T]`:
// nsys start, for a session of `gsys launch` (or `gsys wrap`): opens a capture window in the
// running tree, or arms the NVTX range `gsys launch -p` named (-c nvtx). The session checks
// what the running tree can do (serving answers, cli/live_requests.cc).
#include <cstdio>

#include "cli/capture_options.h"
#include "cli/flags.h"
#include "cli/session_verb.h"
#include "cli/subcommand.h"
#include "cli/time_spec.h"
#include "common/one_line.h"
#include "common/strings.h"
#include "serving/session_registry.h"

namespace gsys::cli {
namespace {

// The verb's own flags, after the capture options.
const std::vector<FlagSpec>& OwnFlags() {
  static const std::vector<FlagSpec> kFlags = SessionVerbFlags();
  return kFlags;
}

const std::vector<FlagSpec>& StartFlags() {
  static const std::vector<FlagSpec> kFlags = [] {
    std::vector<FlagSpec> f = CaptureFlagSpecs(CaptureVerb::kStart);
    f.insert(f.end(), OwnFlags().begin(), OwnFlags().end());
    return f;
  }();
  return kFlags;
}

class StartCommand : public Subcommand {
 public:
  std::string Name() const override { return "start"; }
  std::string Summary() const override {
    return "Open a capture window in a live session (gsys launch)";
  }
  std::string Help() const override {
    return "usage: gsys start [--session NAME] [-d SECONDS] [-o OUTPUT] [options]\n\n"
           "Opens a capture window in the process tree of a live session (gsys launch or\n"
           "gsys wrap). `gsys stop` closes it and prints the report; with -d it closes by itself;\n"
           "`gsys cancel` discards it. -c nvtx instead arms the NVTX range `gsys launch -p` "
           "named:\n"
           "the window opens and closes with that range (--capture-range-end repeat[:N]: with\n"
           "each of the next N). --stats prints the report's stats, --export writes exports\n"
           "beside it. -t can only narrow what gsys launch -t chose, and is then noted as "
           "ignored.\n\n"
           "options:\n" +
           CaptureOptionsHelp(CaptureVerb::kStart, OwnFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("start", StartFlags(), args, false));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (!flags.positionals().empty()) {
      return Error(StatusCode::kInvalidArgument,
                   "start: unexpected argument '" + flags.positionals()[0] + "'");
    }
    GSYS_ASSIGN_OR_RETURN(CaptureOptions o, ReadCaptureOptions(CaptureVerb::kStart, flags));
    // nsys start takes only these range ends (a live session's end is gsys shutdown).
    const std::string& end = o.capture_range_end;
    if (!end.empty() && end != "stop" && end != "none" && end != "repeat" &&
        !StartsWith(end, "repeat:")) {
      return Error(StatusCode::kInvalidArgument, "start: bad --capture-range-end '" + end +
                                                     "' (expected none, stop or repeat[:N])");
    }
    serving::KeyValues req{{"verb", "start"}};
    if (o.duration_ns > 0) req["duration_ns"] = std::to_string(o.duration_ns);
    if (!o.output.empty()) req["output"] = o.output;
    if (flags.Has("trace")) req["trace"] = o.trace.empty() ? "none" : Join(o.trace, ",");
    if (!o.capture_range.empty()) req["capture_range"] = o.capture_range;
    if (!end.empty()) req["capture_range_end"] = end;
    if (o.stats) req["stats"] = "1";
    if (!o.exports.empty()) req["exports"] = Join(o.exports, ",");
    for (const auto& n : o.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("start", flags));
    GSYS_ASSIGN_OR_RETURN(serving::KeyValues answer, AskSession("start", session, req, 10000));
    if (answer.count("note"))
      std::fprintf(stderr, "gsys: note: %s\n", OneLine(answer.at("note")).c_str());
    std::string window = answer.count("window") ? OneLine(answer.at("window"), 16) : "?";
    if (answer.count("armed")) {
      std::fprintf(stderr, "gsys: session '%s': capture range armed; window %s opens with it\n",
                   session.name.c_str(), window.c_str());
    } else {
      std::fprintf(stderr, "gsys: session '%s': window %s recording\n", session.name.c_str(),
                   window.c_str());
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStartCommand() { return std::make_unique<StartCommand>(); }

}  // namespace gsys::cli
