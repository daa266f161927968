// SPDX-License-Identifier: Apache-2.0
// `gsys stop [--session NAME]`: nsys stop. Closes the open window of a live session, waits for
// its report and prints the report's path on stdout.
#include <cstdio>

#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "serving/session_registry.h"

namespace gsys::cli {

Result<serving::SessionInfo> FindLiveSession(const std::string& verb, const ParsedFlags& flags);

namespace {

const std::vector<FlagSpec>& StopFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"session", 0, FlagValue::kRequired, "NAME", "The session (default: the only live one)."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class StopCommand : public Subcommand {
 public:
  std::string Name() const override { return "stop"; }
  std::string Summary() const override { return "Close the capture window of a live session, print its report"; }
  std::string Help() const override {
    return "usage: gsys stop [--session NAME]\n\n"
           "Closes the open capture window of a live session (gsys launch or gsys wrap),\n"
           "waits until its report is written (up to 10 minutes) and prints the report's\n"
           "path. The process tree keeps running.\n\n"
           "options:\n" +
           FlagsHelp(StopFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("stop", StopFlags(), args, false));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (!flags.positionals().empty()) {
      return Error(StatusCode::kInvalidArgument, "stop: unexpected argument '" + flags.positionals()[0] + "'");
    }
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("stop", flags));
    auto answer = serving::SendRequest(session, {{"verb", "stop"}}, 600000);
    if (!answer.ok()) return Error(answer.status().code(), "stop: " + answer.status().message());
    if (answer->count("error")) return Error(StatusCode::kInvalidArgument, "stop: " + OneLine(answer->at("error")));
    std::printf("gsys: generated %s\n", answer->count("report") ? OneLine(answer->at("report"), 4096).c_str() : "?");
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStopCommand() { return std::make_unique<StopCommand>(); }

Result<serving::SessionInfo> FindLiveSession(const std::string& verb, const ParsedFlags& flags) {
  const char* root = std::getenv("GSYS_SESSIONS_DIR");
  auto s = serving::FindSession(serving::SessionsRoot(root ? root : ""), flags.Last("session").value_or(""));
  if (!s.ok()) return Error(s.status().code(), verb + ": " + s.status().message());
  return s;
}

}  // namespace gsys::cli
