// SPDX-License-Identifier: Apache-2.0
// `gsys shutdown [--session NAME] [--kill none|sigterm|sigkill|N]`: nsys shutdown. Ends a live
// session: an open window is finalized, the signal (default SIGTERM) goes to the tree.
#include <csignal>
#include <cstdio>

#include "cli/session_verb.h"
#include "cli/subcommand.h"
#include "common/strings.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& ShutdownFlags() {
  static const std::vector<FlagSpec> kFlags = SessionVerbFlags(
      {{"kill", 0, FlagValue::kRequired, "none|sigterm|sigkill|N",
        "Signal sent to the process tree. Default: sigterm; none leaves it running."}});
  return kFlags;
}

class ShutdownCommand : public Subcommand {
 public:
  std::string Name() const override { return "shutdown"; }
  std::string Summary() const override { return "End a live session (finalizes an open window)"; }
  std::string Help() const override {
    return "usage: gsys shutdown [--session NAME] [--kill none|sigterm|sigkill|N]\n\n"
           "Ends a live session: an open window is finalized into its report, the signal goes\n"
           "to the process tree, and the session's gsys exits once the tree has.\n\n"
           "options:\n" +
           FlagsHelp(ShutdownFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(auto flags, ParseSessionVerb("shutdown", ShutdownFlags(), args, Help()));
    if (!flags) return 0;
    std::string kill = flags->Last("kill").value_or("sigterm");
    int sig = -1;
    if (kill == "none") sig = 0;
    if (kill == "sigterm") sig = SIGTERM;
    if (kill == "sigkill") sig = SIGKILL;
    if (auto n = ParseInt64(kill); n && *n > 0 && *n < 65) sig = static_cast<int>(*n);
    if (sig < 0) {
      return Error(StatusCode::kInvalidArgument,
                   "shutdown: bad --kill '" + kill +
                       "' (expected none, sigterm, sigkill or a signal number)");
    }
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("shutdown", *flags));
    auto answer =
        serving::SendRequest(session, {{"verb", "shutdown"}, {"kill", std::to_string(sig)}}, 10000);
    // The session may end (and remove its folder) before the answer is read: that is success.
    if (!answer.ok() && answer.status().code() != StatusCode::kNotFound) {
      return Error(answer.status().code(), "shutdown: " + answer.status().message());
    }
    std::fprintf(stderr, "gsys: session '%s' is shutting down\n", session.name.c_str());
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeShutdownCommand() { return std::make_unique<ShutdownCommand>(); }

}  // namespace gsys::cli
