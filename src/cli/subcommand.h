// SPDX-License-Identifier: Apache-2.0
// Subcommand: one verb of the CLI (Perfetto's shell/*_subcommand pattern). Each verb
// declares its flags, validates them, builds a domain options struct and calls one
// module entry point. No business logic lives in a verb.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::cli {

class Subcommand {
 public:
  virtual ~Subcommand() = default;
  virtual std::string Name() const = 0;
  // One line for `gsys --help`.
  virtual std::string Summary() const = 0;
  // Full help for `gsys VERB --help` (also the source of docs/cli/VERB.md).
  virtual std::string Help() const = 0;
  // Runs with the arguments after the verb. Returns the process exit code on
  // success paths (e.g. the target's for `profile`), or a non-ok Status.
  virtual Result<int> Run(const std::vector<std::string>& args) = 0;
};

// The registry of verbs, in the order `gsys --help` lists them.
std::vector<std::unique_ptr<Subcommand>> MakeSubcommands();

}  // namespace gsys::cli
