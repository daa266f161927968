// SPDX-License-Identifier: Apache-2.0
// cuda_gpu_kern_hist: kernel durations by kernel name. The table is nsys's: one row per kernel
// (Rank, Duration, Name; zero-duration kernels dropped), from which a histogram is drawn; it is
// spilled (one row per event). The page draws the histograms itself: for each name, --bins equal
// bins shared by every rank, from the shortest to the longest duration of that name over all
// ranks (width ceil((max - min) / bins), at least 1 ns; the longest kernel falls in the last bin),
// from a second, compact frame of distinct (name, duration, count) per rank.
#include <algorithm>
#include <map>
#include <utility>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/recipes.h"
#include "common/saturating.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

struct Grid {
  int64_t lo = 0, width = 1;
  int bins = 1;
  int Bin(int64_t d) const {
    int64_t b = SaturatingSub(d, lo) / width;
    return static_cast<int>(std::clamp<int64_t>(b, 0, bins - 1));
  }
};

class KernHistRecipe : public Recipe {
 public:
  std::string name() const override { return "cuda_gpu_kern_hist"; }
  std::string title() const override { return "CUDA GPU Kernel Duration Histogram"; }
  std::string help() const override {
    return "Kernel durations by kernel name (demangled; --base, --mangled), zero-duration "
           "kernels dropped, as cuda_gpu_kern_sum does. Table: analysis.csv (Rank, Duration, "
           "Name: one row per kernel, as nsys writes it). The page shows histograms of the "
           "names with the most GPU time in --bins bins (default 30) shared by all ranks, from "
           "the name's shortest to its longest duration.";
  }
  std::vector<std::string> SpilledTables() const override { return {"analysis"}; }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    return {{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"}};
  }

  Result<Bundle> Map(MapContext& ctx) const override {
    Frame kernels;  // nsys's analysis rows, in the kernel table's order
    kernels.columns = {"Duration", "Name"};
    std::string name = KernelNameExpr(ctx.options.name_variant, "k");
    GSYS_RETURN_IF_ERROR(
        ForEachRow(ctx.reader.db(),
                   "SELECT k.end - k.start, coalesce(s.value, '<' || " + name +
                       " || '>') FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS s ON s.id = " +
                       name + " WHERE k.end > k.start AND " + name + " IS NOT NULL",
                   [&](report::Statement& s) {
                     kernels.rows.push_back({s.ColumnInt(0), std::string(s.ColumnText(1))});
                     return OkStatus();
                   }));
    std::string sql = "SELECT " + KernelNameExpr(ctx.options.name_variant) +
                      " AS n, end - start AS d, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
                      "end > start GROUP BY n, d ORDER BY n, d";
    std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> rows;  // name id, (dur, count)
    std::vector<int64_t> ids;
    GSYS_RETURN_IF_ERROR(ForEachRow(ctx.reader.db(), sql, [&](report::Statement& s) {
      if (s.IsNull(0)) return OkStatus();
      int64_t id = s.ColumnInt(0);
      if (ids.empty() || ids.back() != id) ids.push_back(id);
      rows.push_back({id, {s.ColumnInt(1), s.ColumnInt(2)}});
      return OkStatus();
    }));
    GSYS_ASSIGN_OR_RETURN(auto names, LookupStrings(ctx.reader.db(), ids));
    Frame f;
    f.columns = {"Name", "Duration", "Count"};
    for (const auto& [id, dc] : rows) f.rows.push_back({names.at(id), dc.first, dc.second});
    return Bundle{{"analysis", std::move(kernels)}, {"durations", std::move(f)}};
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions& options,
                              const GlobalParams&) const override {
    auto mapped = MappedRanks(ranks);
    // The grid of each name: its duration range over all ranks.
    std::map<std::string, std::pair<int64_t, int64_t>> range;
    std::map<std::string, int64_t> total_time;
    for (const RankResult& r : mapped) {
      for (const auto& row : r.bundle->at("durations").rows) {
        std::string n = CellString(row[0]);
        int64_t d = CellInt(row[1]);
        auto [it, added] = range.emplace(n, std::make_pair(d, d));
        if (!added) it->second = {std::min(it->second.first, d), std::max(it->second.second, d)};
        total_time[n] = SaturatingAdd(total_time[n], SaturatingMul(d, CellInt(row[2])));
      }
    }
    int bins = std::max(options.bins, 1);
    std::map<std::string, Grid> grids;
    for (const auto& [n, lohi] : range) {
      int64_t span = SaturatingSub(lohi.second, lohi.first);
      grids[n] = {lohi.first, std::max<int64_t>(1, span / bins + (span % bins != 0)), bins};
    }
    std::map<std::string, std::vector<int64_t>> all_ranks;  // name -> count per bin
    for (const RankResult& r : mapped) {
      for (const auto& row : r.bundle->at("durations").rows) {
        std::string n = CellString(row[0]);
        auto& v = all_ranks[n];
        v.resize(static_cast<size_t>(bins), 0);
        v[static_cast<size_t>(grids.at(n).Bin(CellInt(row[1])))] += CellInt(row[2]);
      }
    }
    RecipeResult result;
    result.blocks.emplace_back(
        "Kernel durations per name in " + std::to_string(bins) +
        " bins shared by all ranks (from the name's shortest to its longest duration). The "
        "charts show the ten names with the most GPU time, all ranks together.");
    std::vector<std::pair<int64_t, std::string>> top;
    for (const auto& [n, t] : total_time) top.push_back({-t, n});
    std::sort(top.begin(), top.end());
    for (size_t i = 0; i < top.size() && i < 10; ++i) {
      const std::string& n = top[i].second;
      const Grid& g = grids.at(n);
      html::BarChart chart{n, "kernels", {}, {}};
      for (int b = 0; b < bins; ++b) {
        chart.labels.push_back(HumanNs(static_cast<double>(g.lo + b * g.width)));
        chart.values.push_back(static_cast<double>(all_ranks[n][static_cast<size_t>(b)]));
      }
      result.blocks.emplace_back(std::move(chart));
    }
    if (!top.empty()) {
      const std::string& n = top.front().second;
      const auto& v = all_ranks[n];
      size_t mode = static_cast<size_t>(std::max_element(v.begin(), v.end()) - v.begin());
      const Grid& g = grids.at(n);
      result.summary.push_back(
          "most GPU time: " + n + ", most often " +
          HumanNs(static_cast<double>(g.lo + static_cast<int64_t>(mode) * g.width)) + " to " +
          HumanNs(static_cast<double>(g.lo + static_cast<int64_t>(mode + 1) * g.width)));
    }
    OutputTable table = StackedTable("analysis", ranks, "analysis", {"Rank", "Duration", "Name"});
    GSYS_ASSIGN_OR_RETURN(auto page, PageTableBlocks("analysis", table));
    for (auto& block : page) result.blocks.push_back(std::move(block));
    result.tables.push_back(std::move(table));
    return result;
  }
};

}  // namespace

std::unique_ptr<Recipe> MakeKernHistRecipe() { return std::make_unique<KernHistRecipe>(); }

}  // namespace gsys::analysis::recipe
