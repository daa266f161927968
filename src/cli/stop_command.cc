// SPDX-License-Identifier: Apache-2.0
// `gsys stop [--session NAME] [--keep SEC]`: nsys stop. Closes the open window of a live
// session, waits for its report and prints the report's path on stdout (then the report's
// stats, when `gsys start --stats` opened the window).
#include <cstdio>

#include "cli/capture_option_values.h"
#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "serving/session_registry.h"

namespace gsys::cli {

Result<serving::SessionInfo> FindLiveSession(const std::string& verb, const ParsedFlags& flags);
std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

const std::vector<FlagSpec>& StopFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"session", 0, FlagValue::kRequired, "NAME", "The session (default: the only live one)."},
      {"keep", 0, FlagValue::kRequired, "SECONDS",
       "Keep only the window's last SECONDS in the report (0: all). Default: 0."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class StopCommand : public Subcommand {
 public:
  std::string Name() const override { return "stop"; }
  std::string Summary() const override { return "Close the capture window of a live session, print its report"; }
  std::string Help() const override {
    return "usage: gsys stop [--session NAME] [--keep SECONDS]\n\n"
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
    serving::KeyValues req{{"verb", "stop"}};
    if (auto keep = flags.Last("keep")) {
      auto ns = ParseSecondsNs("--keep", *keep);
      if (!ns.ok()) return Error(ns.status().code(), "stop: " + ns.status().message());
      req["keep_ns"] = std::to_string(*ns);
    }
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("stop", flags));
    auto answer = serving::SendRequest(session, req, 600000);
    if (!answer.ok()) return Error(answer.status().code(), "stop: " + answer.status().message());
    if (answer->count("error")) return Error(StatusCode::kInvalidArgument, "stop: " + OneLine(answer->at("error")));
    std::string report = answer->count("report") ? answer->at("report") : "";
    std::printf("gsys: generated %s\n", report.empty() ? "?" : OneLine(report, 4096).c_str());
    if (!report.empty() && answer->count("stats") && answer->at("stats") == "1") {
      std::fflush(stdout);
      return MakeStatsCommand()->Run({report});
    }
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
