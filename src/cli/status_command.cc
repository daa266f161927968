// SPDX-License-Identifier: Apache-2.0
// `gsys status [--session NAME]`: nsys status for a live session: its name, gsys's pid, the
// command, whether a window is recording, and how many reports were written, are being
// written, failed or were cancelled. One "Key: value" line each on stdout. (nsys's
// `status -e/-n` environment checks are not done: gsys needs no perf or network setup.)
#include <cstdio>

#include "cli/session_verb.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "common/strings.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& StatusFlags() {
  static const std::vector<FlagSpec> kFlags = SessionVerbFlags();
  return kFlags;
}

std::string Get(const serving::KeyValues& kv, const std::string& key) {
  auto it = kv.find(key);
  return it == kv.end() ? "" : OneLine(it->second, 400);
}

class StatusCommand : public Subcommand {
 public:
  std::string Name() const override { return "status"; }
  std::string Summary() const override { return "Show the state of a live session"; }
  std::string Help() const override {
    return "usage: gsys status [--session NAME]\n\n"
           "Prints the state of a live session (gsys launch or gsys wrap): whether a capture\n"
           "window is recording (and for how long) or a capture range is armed, the reports\n"
           "written, being written, failed and cancelled, and what the tree records.\n\n"
           "options:\n" +
           FlagsHelp(StatusFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(auto flags, ParseSessionVerb("status", StatusFlags(), args, Help()));
    if (!flags) return 0;
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("status", *flags));
    GSYS_ASSIGN_OR_RETURN(serving::KeyValues a,
                          AskSession("status", session, {{"verb", "status"}}, 10000));
    std::string state = Get(a, "state");
    if (state == "recording") {
      double secs = static_cast<double>(ParseInt64(Get(a, "open_for_ns")).value_or(0)) / 1e9;
      char open[96];
      std::snprintf(open, sizeof(open), " (window %s, open for %.1f s)",
                    Get(a, "next_window").c_str(), secs);
      state += open;
    }
    std::printf("Session: %s\n", OneLine(session.name, 200).c_str());
    std::printf("Kind: %s\n", OneLine(session.kind, 16).c_str());
    std::printf("gsys PID: %d\n", static_cast<int>(session.pid));
    std::printf("Command: %s\n", OneLine(session.command, 400).c_str());
    std::printf("State: %s\n", state.c_str());
    std::printf("Reports: %s written, %s being written, %s failed, %s cancelled\n",
                Get(a, "written").c_str(), Get(a, "finalizing").c_str(), Get(a, "failed").c_str(),
                Get(a, "cancelled").c_str());
    if (a.count("capture_range"))
      std::printf("Capture range: %s\n", Get(a, "capture_range").c_str());
    std::printf("Trace: %s\n", Get(a, "trace").c_str());
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStatusCommand() { return std::make_unique<StatusCommand>(); }

}  // namespace gsys::cli
