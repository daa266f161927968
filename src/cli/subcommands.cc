// SPDX-License-Identifier: Apache-2.0
// The verb registry: adding a verb is one line here plus its own file.
#include "cli/subcommand.h"

namespace gsys::cli {

std::unique_ptr<Subcommand> MakeStatsCommand();
std::unique_ptr<Subcommand> MakeExportCommand();
std::unique_ptr<Subcommand> MakeAnalyzeCommand();
std::unique_ptr<Subcommand> MakeSummaryCommand();
std::unique_ptr<Subcommand> MakeRecipeCommand();
std::unique_ptr<Subcommand> MakeProfileCommand(), MakeImportCommand();  // capture (issue 3)
std::unique_ptr<Subcommand> MakeUploadCommand();                        // issue 7
std::unique_ptr<Subcommand> MakeWrapCommand(), MakeLaunchCommand(), MakeStartCommand(),
    MakeStopCommand(), MakeSessionsCommand(), MakeShutdownCommand();   // serving (issue 7)
std::unique_ptr<Subcommand> MakeCancelCommand(), MakeStatusCommand();  // issue 19

std::vector<std::unique_ptr<Subcommand>> MakeSubcommands() {
  std::vector<std::unique_ptr<Subcommand>> verbs;
  verbs.push_back(MakeProfileCommand());
  verbs.push_back(MakeStatsCommand());
  verbs.push_back(MakeAnalyzeCommand());
  verbs.push_back(MakeSummaryCommand());
  verbs.push_back(MakeRecipeCommand());
  verbs.push_back(MakeExportCommand());
  verbs.push_back(MakeImportCommand());
  verbs.push_back(MakeUploadCommand());
  for (auto* make :
       {MakeWrapCommand, MakeLaunchCommand, MakeStartCommand, MakeStopCommand, MakeCancelCommand,
        MakeStatusCommand, MakeSessionsCommand, MakeShutdownCommand}) {
    verbs.push_back(make());
  }
  return verbs;
}

}  // namespace gsys::cli
