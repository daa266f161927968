// SPDX-License-Identifier: Apache-2.0
// `gsys stop [--session NAME] [--keep SEC]`: nsys stop. Closes the open window of a live
// session, waits for its report and prints the report's path on stdout (then the report's
// stats, when `gsys start --stats` opened the window).
#include <cstdio>

#include "cli/capture_option_values.h"
#include "cli/session_verb.h"
#include "cli/subcommand.h"
#include "common/one_line.h"

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

namespace {

const std::vector<FlagSpec>& StopFlags() {
  static const std::vector<FlagSpec> kFlags = SessionVerbFlags(
      {{"keep", 0, FlagValue::kRequired, "SECONDS",
        "Keep only the window's last SECONDS in the report (0: all). Default: 0."}});
  return kFlags;
}

class StopCommand : public Subcommand {
 public:
  std::string Name() const override { return "stop"; }
  std::string Summary() const override {
    return "Close the capture window of a live session, print its report";
  }
  std::string Help() const override {
    return "usage: gsys stop [--session NAME] [--keep SECONDS]\n\n"
           "Closes the open capture window of a live session (gsys launch or gsys wrap),\n"
           "waits until its report is written (up to 10 minutes) and prints the report's\n"
           "path. The process tree keeps running.\n\n"
           "options:\n" +
           FlagsHelp(StopFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(auto flags, ParseSessionVerb("stop", StopFlags(), args, Help()));
    if (!flags) return 0;
    serving::KeyValues req{{"verb", "stop"}};
    if (auto keep = flags->Last("keep")) {
      auto ns = ParseSecondsNs("--keep", *keep);
      if (!ns.ok()) return Error(ns.status().code(), "stop: " + ns.status().message());
      req["keep_ns"] = std::to_string(*ns);
    }
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("stop", *flags));
    GSYS_ASSIGN_OR_RETURN(serving::KeyValues answer, AskSession("stop", session, req, 600000));
    std::string report = answer.count("report") ? answer.at("report") : "";
    std::printf("gsys: generated %s\n", report.empty() ? "?" : OneLine(report, 4096).c_str());
    if (!report.empty() && answer.count("stats") && answer.at("stats") == "1") {
      std::fflush(stdout);
      return MakeStatsCommand()->Run({report});
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStopCommand() { return std::make_unique<StopCommand>(); }

}  // namespace gsys::cli
