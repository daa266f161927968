// SPDX-License-Identifier: Apache-2.0
// `gsys start [--session NAME] [-d SEC] [-o OUT]`: nsys start, for a session of `gsys launch`
// (or `gsys wrap`): opens a capture window in the running tree.
#include <cstdio>

#include "cli/capture_options.h"
#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "cli/time_spec.h"
#include "serving/session_registry.h"

namespace gsys::cli {

Result<serving::SessionInfo> FindLiveSession(const std::string& verb, const ParsedFlags& flags);

namespace {

// The verb's own flags, after the capture options.
const std::vector<FlagSpec>& OwnFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"session", 0, FlagValue::kRequired, "NAME", "The session (default: the only live one)."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
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
  std::string Summary() const override { return "Open a capture window in a live session (gsys launch)"; }
  std::string Help() const override {
    return "usage: gsys start [--session NAME] [-d SECONDS] [-o OUTPUT] [options]\n\n"
           "Opens a capture window in the process tree of a live session (gsys launch or\n"
           "gsys wrap). `gsys stop` closes it and prints the report; with -d it closes by itself.\n\n"
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
      return Error(StatusCode::kInvalidArgument, "start: unexpected argument '" + flags.positionals()[0] + "'");
    }
    GSYS_ASSIGN_OR_RETURN(CaptureOptions o, ReadCaptureOptions(CaptureVerb::kStart, flags));
    serving::KeyValues req{{"verb", "start"}};
    if (o.duration_ns > 0) req["duration_ns"] = std::to_string(o.duration_ns);
    if (!o.output.empty()) req["output"] = o.output;
    for (const auto& n : o.notes) std::fprintf(stderr, "gsys: note: %s\n", n.c_str());
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("start", flags));
    auto answer = serving::SendRequest(session, req, 10000);
    if (!answer.ok()) return Error(answer.status().code(), "start: " + answer.status().message());
    if (answer->count("error")) return Error(StatusCode::kInvalidArgument, "start: " + OneLine(answer->at("error")));
    std::fprintf(stderr, "gsys: session '%s': window %s recording\n", session.name.c_str(),
                 answer->count("window") ? answer->at("window").c_str() : "?");
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStartCommand() { return std::make_unique<StartCommand>(); }

}  // namespace gsys::cli
