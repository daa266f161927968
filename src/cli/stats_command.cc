// SPDX-License-Identifier: Apache-2.0
// `gsys stats`: placeholder until the stats engine lands.
#include "cli/flags.h"
#include "cli/subcommand.h"

namespace gsys::cli {
namespace {

class StatsCommand : public Subcommand {
 public:
  std::string Name() const override { return "stats"; }
  std::string Summary() const override { return "Summary reports over a gsys report or nsys export"; }
  std::string Help() const override { return "usage: gsys stats [options] REPORT...\n"; }
  Result<int> Run(const std::vector<std::string>&) override {
    return Error(StatusCode::kUnsupported, "stats: not built yet");
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeStatsCommand() { return std::make_unique<StatsCommand>(); }

}  // namespace gsys::cli
