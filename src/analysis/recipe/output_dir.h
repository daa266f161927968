// SPDX-License-Identifier: Apache-2.0
// The recipe output directory: one CSV per table (files.csv is the rank index), one
// self-contained HTML page, and a JSON manifest NAME.gsys-analysis listing them.
#pragma once

#include <string>
#include <vector>

#include "analysis/recipe/engine.h"

namespace gsys::analysis::recipe {

// Checks, before any work, that `dir` can be written: kIoError when it exists and !`force`,
// when it exists but is neither empty nor a recipe output (no files.csv: gsys never replaces an
// unrelated directory), or when its parent is missing or not writable.
Status CheckOutputDir(const std::string& dir, bool force);

// Who made an output, for its manifest and page footer: the command line as a shell would take
// it (common/command_text.h, secrets masked) and the gsys version.
struct OutputProvenance {
  std::string command_line;
  std::string gsys_version;
};

// Writes the output of `run` into `dir` through a temporary sibling directory renamed into
// place, so a failure leaves no partial output. Returns the file names written (sorted). `text`:
// the CSVs' text cells as they are, or neutralised for spreadsheets (frame.h).
Result<std::vector<std::string>> WriteOutputDir(const std::string& dir, bool force,
                                                const Recipe& recipe, const RecipeRun& run,
                                                const OutputProvenance& made_by, CsvText text);

// The page of `run` (title, the recipe's blocks, notes, the files index; the input reports'
// paths are in that index) with a footer naming `made_by`.
html::Page RecipePage(const Recipe& recipe, const RecipeRun& run, const OutputProvenance& made_by);

}  // namespace gsys::analysis::recipe
