// SPDX-License-Identifier: Apache-2.0
// cuda_gpu_time_util_map and nccl_gpu_time_util_map: GPU busy % per time bin, per rank and
// (PID, device[, stream]); a heat map. Kernels of one row are merged into busy intervals first
// (concurrent kernels do not count twice), then each interval adds its overlap to the bins it
// touches. The NCCL map keeps communication (kernels whose base name starts with "nccl") and
// compute apart. Bins share one grid across ranks: from the earliest aligned kernel start to the
// latest aligned end, cut into --bins bins of ceil(span / bins) ns; a rank's bins outside its
// own first..last kernel are empty (NULL). Map streams kernels in (row, start) order and keeps
// one open interval and one bin vector per row.
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/bin_accumulator.h"
#include "analysis/recipe/recipes/recipes.h"
#include "common/saturating.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

using RowKey = std::tuple<int64_t, int64_t, int64_t>;  // pid, device, stream (-1 if merged)

class UtilMapRecipe : public Recipe {
 public:
  explicit UtilMapRecipe(bool nccl) : nccl_(nccl) {}
  std::string name() const override {
    return nccl_ ? "nccl_gpu_time_util_map" : "cuda_gpu_time_util_map";
  }
  std::string title() const override {
    return nccl_ ? "NCCL GPU Time Utilization Heat Map" : "CUDA GPU Time Utilization Heat Map";
  }
  std::string help() const override {
    return std::string(nccl_ ? "Communication (NCCL kernels) and compute busy % "
                             : "Kernel busy % ") +
           "per time bin, per rank, PID and GPU (--per-stream: and stream). Options: --bins, "
           "--filter-time, --filter-nvtx, --disable-alignment. Table: analysis.csv (Duration = "
           "bin start in ns from the earliest aligned kernel).";
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    return {{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"}};
  }
  std::vector<std::string> ExtentTables() const override { return {"CUPTI_ACTIVITY_KIND_KERNEL"}; }

  Result<Bundle> Map(MapContext& ctx) const override {
    const GlobalParams& p = ctx.params;
    size_t bins = static_cast<size_t>(std::max(p.bins, 0));
    bool per_stream = ctx.options.per_stream;
    std::string sql = "SELECT (k.globalPid >> 24) & 0xFFFFFF, k.deviceId, " +
                      std::string(per_stream ? "k.streamId" : "-1") + ", k.start, k.end, " +
                      (nccl_ ? "coalesce(s.value LIKE 'nccl%', 0)" : "0") +
                      " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k " +
                      (nccl_ ? "LEFT JOIN StringIds AS s ON s.id = k.shortName " : "") +
                      "ORDER BY 1, 2, 3, k.start";
    std::map<RowKey, std::vector<BinAccumulator>> rows;  // [0] compute/all, [1] comm
    int64_t offset = ctx.info.offset;
    GSYS_RETURN_IF_ERROR(ForEachRow(ctx.reader.db(), sql, [&](report::Statement& s) {
      RowKey key{s.ColumnInt(0), s.ColumnInt(1), s.ColumnInt(2)};
      auto it = rows.find(key);
      if (it == rows.end()) {
        it = rows.emplace(key, std::vector<BinAccumulator>(2, BinAccumulator(p, bins))).first;
      }
      it->second[s.ColumnInt(5) ? 1 : 0].Add(SaturatingAdd(s.ColumnInt(3), offset),
                                             SaturatingAdd(s.ColumnInt(4), offset));
      return OkStatus();
    }));
    // Bins outside this rank's first..last kernel have no data.
    int64_t lo = SaturatingSub(SaturatingAdd(ctx.info.first_ns.value_or(0), offset), p.origin);
    int64_t hi = SaturatingSub(SaturatingAdd(ctx.info.last_ns.value_or(0), offset), p.origin);
    Frame f;
    f.columns = {"Duration"};
    if (nccl_) {
      f.columns.insert(f.columns.end(), {"Communication", "Compute"});
    } else {
      f.columns.push_back("Kernel");
    }
    f.columns.insert(f.columns.end(), {"PID", "Device ID"});
    if (per_stream) f.columns.push_back("Stream ID");
    for (auto& [key, acc] : rows) {
      for (auto& a : acc) a.Flush();
      for (size_t b = 0; b < bins; ++b) {
        int64_t bs = SaturatingMul(static_cast<int64_t>(b), p.bin_size);
        bool inside = bs < hi && SaturatingAdd(bs, p.bin_size) > lo;
        auto pct = [&](const BinAccumulator& a) -> Cell {
          if (!inside) return std::monostate{};
          return Round1(static_cast<double>(a.busy()[b]) * 100.0 / static_cast<double>(p.bin_size));
        };
        std::vector<Cell> row = {bs};
        if (nccl_) {
          row.push_back(pct(acc[1]));
          row.push_back(pct(acc[0]));
        } else {
          row.push_back(pct(acc[0]));
        }
        row.emplace_back(std::get<0>(key));
        row.emplace_back(std::get<1>(key));
        if (per_stream) row.emplace_back(std::get<2>(key));
        f.rows.push_back(std::move(row));
      }
    }
    return Bundle{{"analysis", std::move(f)}};
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions& options,
                              const GlobalParams& p) const override {
    RecipeResult result;
    Frame all;
    for (const RankResult& r : MappedRanks(ranks)) {
      AppendRows(&all, WithRank(r.bundle->at("analysis"), r.info->rank));
    }
    if (all.columns.empty()) {
      all.columns = {"Rank", "Duration", nccl_ ? "Communication" : "Kernel", "PID", "Device ID"};
    }
    result.tables.push_back({"analysis", all});
    result.blocks.emplace_back(
        "Busy % of each GPU per time bin (" + std::to_string(p.bins) + " bins of " +
        HumanNs(static_cast<double>(p.bin_size)) +
        ", time from the earliest aligned kernel). Overlapping kernels count once; empty "
        "cells are outside the rank's first..last kernel.");
    std::vector<std::string> classes = nccl_ ? std::vector<std::string>{"Communication", "Compute"}
                                             : std::vector<std::string>{"Kernel"};
    bool per_stream = options.per_stream;
    for (const std::string& cls : classes) {
      html::HeatMap map;
      map.title = cls + " busy %";
      for (int b = 0; b < p.bins; ++b) {
        map.bin_starts_s.push_back(static_cast<double>(b) * static_cast<double>(p.bin_size) / 1e9);
      }
      int col = all.Column(cls);
      std::map<std::vector<int64_t>, size_t> index;
      std::vector<std::pair<std::string, double>> means;
      for (const auto& row : all.rows) {
        std::vector<int64_t> key = {CellInt(row[0]), CellInt(row[all.Column("PID")]),
                                    CellInt(row[all.Column("Device ID")])};
        if (per_stream) key.push_back(CellInt(row[all.Column("Stream ID")]));
        auto [it, added] = index.emplace(key, map.values.size());
        if (added) {
          std::string label = "rank " + std::to_string(key[0]) + " pid " + std::to_string(key[1]) +
                              " GPU " + std::to_string(key[2]);
          if (per_stream) label += " stream " + std::to_string(key[3]);
          map.row_labels.push_back(label);
          map.values.emplace_back();
        }
        map.values[it->second].push_back(CellDouble(row[static_cast<size_t>(col)]));
      }
      for (size_t i = 0; i < map.values.size(); ++i) {
        double sum = 0;
        int n = 0;
        for (double v : map.values[i]) {
          if (std::isfinite(v)) {
            sum += v;
            ++n;
          }
        }
        if (n) means.push_back({map.row_labels[i], sum / n});
      }
      if (!means.empty()) {
        auto [lo, hi] = std::minmax_element(means.begin(), means.end(),
                                            [](auto& a, auto& b) { return a.second < b.second; });
        char buf[256];
        std::snprintf(buf, sizeof(buf),
                      "%s: least busy %s (%.1f%% on average), busiest %s (%.1f%%)", cls.c_str(),
                      lo->first.c_str(), lo->second, hi->first.c_str(), hi->second);
        result.summary.push_back(buf);
      }
      result.blocks.emplace_back(std::move(map));
    }
    result.blocks.emplace_back(TableBlock("analysis", all));
    return result;
  }

 private:
  bool nccl_;
};

}  // namespace

std::unique_ptr<Recipe> MakeUtilMapRecipe(const std::string& name) {
  if (name == "cuda_gpu_time_util_map") return std::make_unique<UtilMapRecipe>(false);
  if (name == "nccl_gpu_time_util_map") return std::make_unique<UtilMapRecipe>(true);
  return nullptr;
}

}  // namespace gsys::analysis::recipe
