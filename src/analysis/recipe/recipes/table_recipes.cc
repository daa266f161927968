// SPDX-License-Identifier: Apache-2.0
// Recipes that run one existing per-report analysis on every rank and stack the tables with a
// Rank column: nvtx_gpu_proj_trace and nvtx_gpu_proj_sum (the stats reports of the same names)
// and the expert-rule recipes (the `gsys analyze` rules: gpu_gaps, gpu_time_util, cuda_api_sync,
// cuda_memcpy_sync, cuda_memcpy_async, cuda_memset_sync and gsys's own rules). The per-rank tables
// are spilled to parts on disk (Recipe::SpilledTables) and concatenated in rank order.
#include <map>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/recipes.h"
#include "analysis/rules/rule_registry.h"
#include "analysis/rules/rules.h"
#include "analysis/stats/stats.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

// A stats/rule table as a frame: visible columns "Label (unit)"; timestamp columns shifted by
// `offset` (session alignment).
Frame FromResultTable(const ResultTable& table, int64_t offset) {
  Frame f;
  std::vector<size_t> keep;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const Column& col = table.columns[c];
    if (col.hidden) continue;
    keep.push_back(c);
    f.columns.push_back(col.base_unit.empty() ? col.label : col.label + " (" + col.base_unit + ")");
  }
  for (const auto& row : table.rows) {
    std::vector<Cell> out;
    for (size_t c : keep) {
      Cell cell = row[c];
      if (table.columns[c].category == UnitCategory::kTs) {
        if (auto* i = std::get_if<int64_t>(&cell)) *i += offset;
      }
      out.push_back(std::move(cell));
    }
    f.rows.push_back(std::move(out));
  }
  return f;
}

std::string RowsPerRank(const std::vector<RankResult>& ranks, const std::string& name) {
  std::map<int64_t, int64_t> n = StackedRowsPerRank(ranks, name);
  std::string text;
  for (const auto& [rank, count] : n) {
    text += (text.empty() ? "" : ", ") + std::string("rank ") + std::to_string(rank) + ": " +
            std::to_string(count);
  }
  return text.empty() ? "no rows" : "rows per rank: " + text;
}

class ProjRecipe : public Recipe {
 public:
  explicit ProjRecipe(bool trace) : trace_(trace) {}
  std::string name() const override { return trace_ ? "nvtx_gpu_proj_trace" : "nvtx_gpu_proj_sum"; }
  std::string title() const override {
    return trace_ ? "NVTX GPU Projection Trace" : "NVTX GPU Projection Summary";
  }
  std::string help() const override {
    return std::string(
               "NVTX ranges projected onto the GPU (each range spans from the start of "
               "the first to the end of the last GPU operation launched inside it), ") +
           (trace_ ? "one row per range (trace.csv, times aligned)" : "per name (rank_stats.csv)") +
           ", the stats report of the same name run on every rank.";
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    return {
        {{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"},
        {{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"},
         "GPU trace data"},
        {{"CUPTI_ACTIVITY_KIND_RUNTIME"}, "CUDA API data"}};
  }
  std::vector<std::string> SpilledTables() const override { return {"table"}; }
  Result<Bundle> Map(MapContext& ctx) const override {
    GSYS_ASSIGN_OR_RETURN(ReportOutcome out, RunReport(ctx.reader, {name(), {}}));
    if (out.skipped) ctx.skip_reason = "does not contain " + out.missing_data;
    return Bundle{{"table", FromResultTable(out.table, ctx.info.offset)}};
  }
  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions&,
                              const GlobalParams&) const override {
    RecipeResult result;
    std::string table = trace_ ? "trace" : "rank_stats";
    OutputTable all = StackedTable(table, ranks, "table", {"Rank"});
    result.blocks.emplace_back(help());
    GSYS_ASSIGN_OR_RETURN(auto blocks, PageTableBlocks(table, all));
    for (auto& block : blocks) result.blocks.push_back(std::move(block));
    result.summary.push_back(RowsPerRank(ranks, "table"));
    result.tables.push_back(std::move(all));
    return result;
  }

 private:
  bool trace_;
};

class RuleRecipe : public Recipe {
 public:
  explicit RuleRecipe(const RuleSpec& spec) : spec_(spec) {}
  std::string name() const override { return std::string(spec_.name); }
  std::string title() const override { return std::string(spec_.title); }
  std::string help() const override {
    std::string opts;
    for (const RuleOption& o : spec_.options) opts += " --" + std::string(o.name);
    return "The analyze rule '" + name() +
           "' run on every rank (analysis.csv; rows per rank "
           "unlimited unless --rows). Rule options:" +
           (opts.empty() ? " none" : opts) + ". See gsys analyze --help-rules " + name() + ".";
  }
  Status Validate(const RecipeOptions& options) const override {
    for (const std::string& arg : options.rule_args) {
      std::string key = arg.substr(0, arg.find('='));
      bool known = key == "rows";
      for (const RuleOption& o : spec_.options) known = known || o.name == key;
      if (!known) {
        return Error(StatusCode::kInvalidArgument,
                     "recipe: --" + key + " does not apply to " + name());
      }
    }
    return OkStatus();
  }
  std::vector<std::string> SpilledTables() const override { return {"analysis"}; }
  Result<Bundle> Map(MapContext& ctx) const override {
    RuleRequest request{name(), {"rows=-1"}};
    for (const std::string& arg : ctx.options.rule_args) request.args.push_back(arg);
    auto outcome = RunRule(ctx.reader, request, ctx.info.path);
    if (!outcome.ok()) {
      std::string message = outcome.status().message();
      if (StartsWith(message, "analyze: ")) message = message.substr(9);
      return Error(outcome.status().code(), message);
    }
    if (outcome->skipped) ctx.skip_reason = outcome->skip_reason;
    Frame advice;
    advice.columns = {"Advice", "No Result"};
    advice.rows.push_back({outcome->advice, outcome->no_result});
    return Bundle{{"analysis", FromResultTable(outcome->table, 0)}, {"advice", advice}};
  }
  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions&,
                              const GlobalParams&) const override {
    RecipeResult result;
    OutputTable all = StackedTable("analysis", ranks, "analysis", {"Rank"});
    auto mapped = MappedRanks(ranks);
    if (!mapped.empty()) {
      const Frame& advice = mapped.front().bundle->at("advice");
      result.blocks.emplace_back(CellText(advice.rows[0][all.part_rows == 0 ? 1 : 0]));
    }
    GSYS_ASSIGN_OR_RETURN(auto blocks, PageTableBlocks("analysis", all));
    for (auto& block : blocks) result.blocks.push_back(std::move(block));
    result.summary.push_back(RowsPerRank(ranks, "analysis"));
    result.tables.push_back(std::move(all));
    return result;
  }

 private:
  const RuleSpec& spec_;
};

}  // namespace

std::unique_ptr<Recipe> MakeNvtxProjRecipe(const std::string& name) {
  if (name == "nvtx_gpu_proj_trace") return std::make_unique<ProjRecipe>(true);
  if (name == "nvtx_gpu_proj_sum") return std::make_unique<ProjRecipe>(false);
  return nullptr;
}

std::unique_ptr<Recipe> MakeRuleRecipe(const std::string& name) {
  const RuleSpec* spec = FindRuleSpec(name);
  return spec ? std::make_unique<RuleRecipe>(*spec) : nullptr;
}

}  // namespace gsys::analysis::recipe
