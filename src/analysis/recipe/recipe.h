// SPDX-License-Identifier: Apache-2.0
// The recipe interface: a multi-report analysis as a map step per rank (one report, read through
// SQL in bounded memory) and a reduce step over the small per-rank results. Each recipe is one
// small file in recipes/ and one line in recipe_registry.cc.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/recipe/frame.h"
#include "common/status.h"
#include "html/page.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::analysis::recipe {

enum class NameVariant { kDemangled, kBase, kMangled };

// The common recipe options (nsys recipe's args.py), already validated by the CLI.
struct RecipeOptions {
  std::optional<int64_t> filter_start, filter_end;  // --filter-time, ns on each report's timeline
  std::optional<std::string> filter_nvtx;           // --filter-nvtx range[@domain][/index]
  int bins = 30;                                    // --bins, heat maps
  bool disable_alignment = false;                   // --disable-alignment
  NameVariant name_variant = NameVariant::kDemangled;  // --base / --mangled
  bool per_gpu = false, per_stream = false;            // --per-gpu / --per-stream
  std::string range_name;                              // --name, pace recipes
  std::vector<std::string> rule_args;  // rule recipes: gap=, threshold=, chunks=, rows=
  double tolerance = 0;                // diff: % change treated as unchanged
};

// One input report (a rank). Ranks are numbered 0..n-1 in order of file stem within their set.
struct RankInfo {
  int rank = 0;
  int set = 0;                               // diff only: 0 = the first set, 1 = the second
  std::string path;                          // the SQLite file read
  std::string file;                          // the report's file stem, as files.csv shows it
  std::string version;                       // who wrote it: "nsys 2024.6.2.25", "gsys 0.1.0"
  std::optional<int64_t> session_start_utc;  // TARGET_INFO_SESSION_START_TIME.utcEpochNs
  int64_t offset = 0;                        // ns added to this rank's timestamps to align sessions
  std::optional<int64_t> first_ns, last_ns;  // extent of the recipe's events (session time)
  bool skipped = false;
  std::string skip_reason;
  std::vector<std::string> data_warnings;  // report::DataWarnings of the whole file
};

// Parameters the engine derives from every rank before mapping (time bins of heat maps).
struct GlobalParams {
  int64_t origin = 0;    // aligned time of the first bin
  int64_t bin_size = 0;  // ns; 0 when the recipe has no bins or no events
  int bins = 0;
};

struct MapContext {
  report::ReportReader& reader;
  const RankInfo& info;
  const RecipeOptions& options;
  const GlobalParams& params;
  std::string skip_reason;  // set by Map to skip this rank (the recipe goes on)
};

// A table of one rank that the engine wrote to a temporary CSV part instead of keeping it (see
// Recipe::SpilledTables): its lines are the rows with the rank as a first field, no header.
struct SpilledPart {
  std::string path;
  int64_t rows = 0;
};
using SpilledParts = std::map<std::string, SpilledPart>;  // by bundle frame name

struct RankResult {
  const RankInfo* info = nullptr;
  const Bundle* bundle = nullptr;       // nullptr when the rank was skipped
  const SpilledParts* parts = nullptr;  // this rank's spilled tables (their frames have no rows)
};

struct OutputTable {
  OutputTable() = default;
  OutputTable(std::string table_name, Frame table_frame)
      : name(std::move(table_name)), frame(std::move(table_frame)) {}
  std::string name;  // file name without ".csv"
  Frame frame;       // carries a "Rank" column when rows belong to ranks
  // CSV parts (rows without header, as ToCsv writes them) appended in order after frame's rows:
  // tables too large to hold in memory are concatenated from the ranks' parts on disk.
  std::vector<std::string> parts;
  int64_t part_rows = 0;
};

struct RecipeResult {
  std::vector<OutputTable> tables;
  std::vector<html::Block> blocks;   // the page body (the engine adds the files table)
  std::vector<std::string> summary;  // a few lines for the terminal
  std::vector<std::string> notes;    // one line each for stderr (what the recipe chose)
};

// Data a recipe needs in every rank: one of `any_of` must hold rows, else the rank is skipped
// with "does not contain <description>".
struct DataNeed {
  std::vector<std::string> any_of;
  std::string description;
};

// A recipe. Map runs on worker threads, one rank at a time per call, so implementations keep no
// mutable state. Reduce runs once, on rank results in rank order.
class Recipe {
 public:
  virtual ~Recipe() = default;
  virtual std::string name() const = 0;
  virtual std::string title() const = 0;
  // What it computes and which options it uses (for --help-recipes).
  virtual std::string help() const = 0;
  virtual std::vector<DataNeed> Needs(const RecipeOptions&) const { return {}; }
  // Bundle frames that grow with the events of a rank (traces): the engine writes their rows,
  // with the Rank column, to a temporary CSV part as soon as Map returns and keeps only their
  // columns, so memory stays bounded per input whatever the number of inputs. Reduce finds them
  // in RankResult::parts (the frame in the bundle has the columns and no rows).
  virtual std::vector<std::string> SpilledTables() const { return {}; }
  // Tables whose time extent the engine reads in a first pass (heat-map bins); empty: none.
  // "TABLE" reads min(start)..max(end); "TABLE.column" min..max of that timestamp column.
  virtual std::vector<std::string> ExtentTables() const { return {}; }
  // Checks recipe-specific options (e.g. --name is required); kInvalidArgument on error.
  // The default accepts no rule options (--gap, --threshold, --chunks, --rows).
  virtual Status Validate(const RecipeOptions& options) const {
    if (options.rule_args.empty()) return OkStatus();
    std::string arg = options.rule_args.front();
    return Error(StatusCode::kInvalidArgument,
                 "recipe: --" + arg.substr(0, arg.find('=')) + " does not apply to " + name());
  }
  virtual Result<Bundle> Map(MapContext& ctx) const = 0;
  virtual Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks,
                                      const RecipeOptions& options,
                                      const GlobalParams& params) const = 0;
};

// Every recipe, sorted by name.
const std::vector<std::unique_ptr<Recipe>>& AllRecipes();
// nullptr when `name` is not a recipe.
const Recipe* FindRecipe(std::string_view name);
std::vector<std::string> RecipeNames();

}  // namespace gsys::analysis::recipe
