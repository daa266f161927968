// SPDX-License-Identifier: Apache-2.0
// The recipe engine: expands inputs into ranks, scans them (versions, session start times, time
// extents), aligns sessions, maps every rank on worker threads (each with its own read-only
// connection, so memory is bounded by one report's aggregates per thread), and reduces on the
// root. With a Communicator (MPI mode) each process maps its share of the ranks and the root
// reduces the gathered results, giving the same output as a local run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/recipe/communicator.h"
#include "analysis/recipe/recipe.h"

namespace gsys::analysis::recipe {

class ScratchDir;  // spill.h

struct InputFile {
  std::string path;  // SQLite file to read
  std::string file;  // file stem (rank order and files.csv)
  int set = 0;
};

// Expands --input values: report files (.gsys-rep, .sqlite; X.nsys-rep reads X.sqlite beside
// it), directories (their reports, not recursive) and DIR:N (the first N of DIR). Sorted by
// file stem then path, duplicates dropped. Errors: kNotFound for a missing path, kUnsupported
// for a .nsys-rep without its SQLite export, kInvalidArgument when nothing is left.
Result<std::vector<InputFile>> ExpandInputs(const std::vector<std::string>& values, int set);

struct RunRequest {
  const Recipe* recipe = nullptr;
  RecipeOptions options;
  std::vector<InputFile> inputs;  // every input of the run (every process passes the same list)
  int threads = 1;                // worker threads of this process
  // Called on the root after every input was scanned and before any rank is mapped (e.g. to
  // check the output directory); its error stops every process.
  std::function<Status()> before_map;
  // Called (from any worker thread, serialized) after each scan or map step: (done, total).
  std::function<void(size_t, size_t)> progress;
};

struct RecipeRun {
  bool root = true;  // false on non-root MPI processes: nothing to write
  std::vector<RankInfo> ranks;
  GlobalParams params;
  RecipeResult result;
  std::vector<std::string> notes;  // e.g. why sessions were not aligned
  // Holds the parts of spilled tables (Recipe::SpilledTables) until the output is written.
  std::shared_ptr<ScratchDir> scratch;
};

// Runs `request`; `comm` may be null (one process). Bad inputs fail before any map step:
// kNotFound/kBadInput/kUnsupported from the reader. Reports of different producers (nsys
// releases, gsys) mix; the run's notes name the versions.
Result<RecipeRun> RunRecipe(const RunRequest& request, Communicator* comm);

// The files index: Rank, File, Version, Offset (ns), Status ("ok" or "skipped: <reason>").
Frame FilesFrame(const std::vector<RankInfo>& ranks, bool with_set);

}  // namespace gsys::analysis::recipe
