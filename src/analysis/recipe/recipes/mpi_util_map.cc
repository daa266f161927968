// SPDX-License-Identifier: Apache-2.0
// mpi_gpu_time_util_map: per rank and PID, per time bin, the % of the bin a kernel ran (Kernel),
// an MPI call ran (MPI), and both at once (Overlap): how much MPI time is hidden behind GPU work.
// Kernels and MPI calls of a PID are each merged into busy intervals first; Overlap is the
// intersection of the two. The grid is cuda_gpu_time_util_map's (one for every rank, from the
// earliest aligned kernel or MPI call); bins outside a rank's own first..last event are empty.
#include <map>
#include <utility>
#include <vector>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/bin_accumulator.h"
#include "analysis/recipe/recipes/recipes.h"
#include "common/saturating.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;  // sorted, disjoint

constexpr const char* kMpiTables[] = {"MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS",
                                      "MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS"};

// Merged busy intervals per PID of the (pid, start, end) rows of `sql` (ordered by pid, start).
Result<std::map<int64_t, Intervals>> Merged(report::Database& db, const std::string& sql,
                                            int64_t offset) {
  std::map<int64_t, Intervals> out;
  GSYS_RETURN_IF_ERROR(ForEachRow(db, sql, [&](report::Statement& s) {
    int64_t start = SaturatingAdd(s.ColumnInt(1), offset);
    int64_t end = SaturatingAdd(s.ColumnInt(2), offset);
    Intervals& list = out[s.ColumnInt(0)];
    if (!list.empty() && start <= list.back().second) {
      list.back().second = std::max(list.back().second, end);
    } else {
      list.push_back({start, end});
    }
    return OkStatus();
  }));
  return out;
}

Intervals Intersect(const Intervals& a, const Intervals& b) {
  Intervals out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    int64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) out.push_back({lo, hi});
    (a[i].second < b[j].second) ? ++i : ++j;
  }
  return out;
}

class MpiUtilMapRecipe : public Recipe {
 public:
  std::string name() const override { return "mpi_gpu_time_util_map"; }
  std::string title() const override { return "MPI and GPU Time Utilization Heat Map"; }
  std::string help() const override {
    return "Per rank and PID, per time bin: % of the bin with a kernel running (Kernel), an MPI "
           "call running (MPI), and both (Overlap). Options: --bins, --filter-time, "
           "--filter-nvtx, --disable-alignment. Table: analysis.csv (Duration = bin start in ns "
           "from the earliest aligned kernel or MPI call).";
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    return {{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"},
            {{std::begin(kMpiTables), std::end(kMpiTables)}, "MPI data"}};
  }
  std::vector<std::string> ExtentTables() const override {
    std::vector<std::string> tables = {"CUPTI_ACTIVITY_KIND_KERNEL"};
    tables.insert(tables.end(), std::begin(kMpiTables), std::end(kMpiTables));
    return tables;
  }

  Result<Bundle> Map(MapContext& ctx) const override {
    const GlobalParams& p = ctx.params;
    int64_t offset = ctx.info.offset;
    GSYS_ASSIGN_OR_RETURN(
        auto kernels,
        Merged(ctx.reader.db(),
               "SELECT (globalPid >> 24) & 0xFFFFFF, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL "
               "ORDER BY 1, 2",
               offset));
    std::string mpi_sql;
    for (const char* t : kMpiTables) {
      mpi_sql += std::string(mpi_sql.empty() ? "" : " UNION ALL ") +
                 "SELECT (globalTid >> 24) & 0xFFFFFF, start, end FROM " + t +
                 " WHERE end IS NOT NULL";
    }
    GSYS_ASSIGN_OR_RETURN(auto mpi, Merged(ctx.reader.db(), mpi_sql + " ORDER BY 1, 2", offset));
    std::map<int64_t, bool> pids;
    for (const auto& [pid, list] : kernels) pids[pid] = true;
    for (const auto& [pid, list] : mpi) pids[pid] = true;
    size_t bins = static_cast<size_t>(std::max(p.bins, 0));
    int64_t lo = SaturatingSub(SaturatingAdd(ctx.info.first_ns.value_or(0), offset), p.origin);
    int64_t hi = SaturatingSub(SaturatingAdd(ctx.info.last_ns.value_or(0), offset), p.origin);
    Frame f;
    f.columns = {"Duration", "Kernel", "MPI", "Overlap", "PID"};
    static const Intervals kNone;
    for (const auto& [pid, unused] : pids) {
      auto k = kernels.find(pid), m = mpi.find(pid);
      const Intervals& ki = k == kernels.end() ? kNone : k->second;
      const Intervals& mi = m == mpi.end() ? kNone : m->second;
      std::vector<BinAccumulator> acc(3, BinAccumulator(p, bins));
      Intervals both = Intersect(ki, mi);
      const Intervals* lists[] = {&ki, &mi, &both};
      for (size_t i = 0; i < 3; ++i) {
        for (const auto& [s, e] : *lists[i]) acc[i].Add(s, e);
        acc[i].Flush();
      }
      for (size_t b = 0; b < bins; ++b) {
        int64_t bs = SaturatingMul(static_cast<int64_t>(b), p.bin_size);
        bool inside = bs < hi && SaturatingAdd(bs, p.bin_size) > lo;
        std::vector<Cell> row = {bs};
        for (const BinAccumulator& a : acc) {
          if (!inside) {
            row.emplace_back(std::monostate{});
          } else {
            row.emplace_back(
                Round1(static_cast<double>(a.busy()[b]) * 100.0 / static_cast<double>(p.bin_size)));
          }
        }
        row.emplace_back(pid);
        f.rows.push_back(std::move(row));
      }
    }
    return Bundle{{"analysis", std::move(f)}};
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions&,
                              const GlobalParams& p) const override {
    RecipeResult result;
    Frame all;
    for (const RankResult& r : MappedRanks(ranks)) {
      AppendRows(&all, WithRank(r.bundle->at("analysis"), r.info->rank));
    }
    if (all.columns.empty()) all.columns = {"Rank", "Duration", "Kernel", "MPI", "Overlap", "PID"};
    result.blocks.emplace_back("Busy % per time bin (" + std::to_string(p.bins) + " bins of " +
                               HumanNs(static_cast<double>(p.bin_size)) +
                               ") of kernels, MPI calls, and both at once, per rank and PID.");
    double mpi = 0, overlap = 0;
    for (const std::string cls : {"Kernel", "MPI", "Overlap"}) {
      html::HeatMap map;
      map.title = cls + " busy %";
      for (int b = 0; b < p.bins; ++b) {
        map.bin_starts_s.push_back(static_cast<double>(b) * static_cast<double>(p.bin_size) / 1e9);
      }
      size_t col = static_cast<size_t>(all.Column(cls));
      std::map<std::pair<int64_t, int64_t>, size_t> index;
      for (const auto& row : all.rows) {
        std::pair<int64_t, int64_t> key{CellInt(row[0]), CellInt(row[5])};
        auto [it, added] = index.emplace(key, map.values.size());
        if (added) {
          map.row_labels.push_back("rank " + std::to_string(key.first) + " pid " +
                                   std::to_string(key.second));
          map.values.emplace_back();
        }
        map.values[it->second].push_back(CellDouble(row[col]));
        if (!std::holds_alternative<std::monostate>(row[col])) {
          if (cls == "MPI") mpi += CellDouble(row[col]);
          if (cls == "Overlap") overlap += CellDouble(row[col]);
        }
      }
      result.blocks.emplace_back(std::move(map));
    }
    if (mpi > 0) {
      char buf[128];
      std::snprintf(buf, sizeof(buf), "%.1f%% of MPI time overlapped by kernels",
                    100.0 * overlap / mpi);
      result.summary.push_back(buf);
    }
    result.blocks.emplace_back(TableBlock("analysis", all));
    result.tables.push_back({"analysis", std::move(all)});
    return result;
  }
};

}  // namespace

std::unique_ptr<Recipe> MakeMpiUtilMapRecipe() { return std::make_unique<MpiUtilMapRecipe>(); }

}  // namespace gsys::analysis::recipe
