// SPDX-License-Identifier: Apache-2.0
// Pieces of `gsys recipe` shared by its files: the output-name pattern, the progress bar and
// the terminal summary.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/recipe/engine.h"
#include "common/status.h"

namespace gsys::cli {

// Expands nsys's output pattern: %q{ENV} (the variable's value), %h (host name), %p (pid),
// %n (the smallest positive integer giving a path that does not exist yet), %%.
// An unknown %x or an unset %q{ENV} is a kInvalidArgument error.
Result<std::string> ExpandOutputPattern(const std::string& pattern);

// A progress callback drawing "[====>    ] done/total" on stderr when stderr is a terminal and
// !quiet; otherwise a no-op. Call FinishProgress after the run.
std::function<void(size_t, size_t)> MakeProgress(bool quiet);
void FinishProgress(bool quiet);

// The lines printed after a run: where the output went, skipped ranks, the recipe's summary.
std::string RecipeSummaryText(const analysis::recipe::Recipe& recipe,
                              const analysis::recipe::RecipeRun& run, const std::string& dir,
                              const std::vector<std::string>& files);

}  // namespace gsys::cli
