// SPDX-License-Identifier: Apache-2.0
// The verb registry: adding a verb is one line here plus its own file.
#include "cli/subcommand.h"

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();

std::vector<std::unique_ptr<Subcommand>> MakeSubcommands() {
  std::vector<std::unique_ptr<Subcommand>> verbs;
  verbs.push_back(MakeStatsCommand());
  return verbs;
}

}  // namespace gsys::cli
