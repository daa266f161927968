// SPDX-License-Identifier: Apache-2.0
// `gsys cancel [--session NAME]`: nsys cancel. Discards the open capture window of a live
// session (or the capture range `gsys start -c nvtx` armed) without writing a report; the
// process tree keeps running.
#include <cstdio>

#include "cli/session_verb.h"
#include "cli/subcommand.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& CancelFlags() {
  static const std::vector<FlagSpec> kFlags = SessionVerbFlags();
  return kFlags;
}

class CancelCommand : public Subcommand {
 public:
  std::string Name() const override { return "cancel"; }
  std::string Summary() const override { return "Discard the capture window of a live session"; }
  std::string Help() const override {
    return "usage: gsys cancel [--session NAME]\n\n"
           "Discards the open capture window of a live session (gsys launch or gsys wrap)\n"
           "without writing a report, or disarms the capture range gsys start -c armed (a\n"
           "window that range holds open is discarded when the range ends). The process tree\n"
           "keeps running.\n\n"
           "options:\n" +
           FlagsHelp(CancelFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(auto flags, ParseSessionVerb("cancel", CancelFlags(), args, Help()));
    if (!flags) return 0;
    GSYS_ASSIGN_OR_RETURN(serving::SessionInfo session, FindLiveSession("cancel", *flags));
    GSYS_ASSIGN_OR_RETURN(serving::KeyValues answer,
                          AskSession("cancel", session, {{"verb", "cancel"}}, 10000));
    bool range = answer.count("cancelled") && answer.at("cancelled") == "range";
    std::fprintf(stderr, "gsys: session '%s': %s; no report written\n", session.name.c_str(),
                 range ? "capture range cancelled" : "window cancelled");
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeCancelCommand() { return std::make_unique<CancelCommand>(); }

}  // namespace gsys::cli
