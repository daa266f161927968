// SPDX-License-Identifier: Apache-2.0
// The GPU-metrics recipes: gpu_metric_util_map (mean SMs Active, SM Issue and Tensor Active % per
// GPU and time bin, a heat map), gpu_metric_util_sum (statistics of every metric per rank and
// GPU) and
// nvlink_sum (statistics of nsys's eight NVLink throughput metrics, value > 0 only, as nsys's
// recipe keeps them). Samples come from gpu_metric_samples.h; values are truncated to integers
// first, as nsys's recipes do (astype(int)). A rank without any of the metrics is skipped.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/recipe/describe.h"
#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/gpu_metric_samples.h"
#include "analysis/recipe/recipes/recipes.h"
#include "common/saturating.h"

namespace gsys::analysis::recipe {
namespace {

enum class Kind { kUtilMap, kUtilSum, kNvlink };

const std::vector<MetricSpec>& UtilMetrics() {
  static const std::vector<MetricSpec> kMetrics = {
      {"SMs Active",
       {"SMs Active [Throughput %]", "SM Active [Throughput %]", "SM Active"},
       "smActivePercent"},
      {"SM Issue", {"SM Issue [Throughput %]", "SM Issue"}, ""},
      {"Tensor Active",
       {"Tensor Active [Throughput %]", "Tensor Active / FP16 Active [Throughput %]",
        "Tensor Active"},
       "tensorActivePercent"},
  };
  return kMetrics;
}

// nsys names these with and without " [Throughput %]". GSYS_GPU_METRICS has byte counters, not
// throughput, so gsys reports have none of them.
const std::vector<MetricSpec>& NvlinkMetrics() {
  static const std::vector<MetricSpec> kMetrics = [] {
    std::vector<MetricSpec> m;
    for (const char* dir : {"TX", "RX"}) {
      for (const char* what : {"Responses User Data", "Responses Protocol Data",
                               "Requests User Data", "Requests Protocol Data"}) {
        std::string name = std::string("NVLink ") + dir + " " + what;
        m.push_back({name, {name, name + " [Throughput %]"}, ""});
      }
    }
    return m;
  }();
  return kMetrics;
}

class GpuMetricsRecipe : public Recipe {
 public:
  explicit GpuMetricsRecipe(Kind kind) : kind_(kind) {}
  std::string name() const override {
    return kind_ == Kind::kUtilMap   ? "gpu_metric_util_map"
           : kind_ == Kind::kUtilSum ? "gpu_metric_util_sum"
                                     : "nvlink_sum";
  }
  std::string title() const override {
    return kind_ == Kind::kUtilMap   ? "GPU Metric Utilization Heat Map"
           : kind_ == Kind::kUtilSum ? "GPU Metric Utilization Summary"
                                     : "NVLink Network Bandwidth Summary";
  }
  std::string help() const override {
    std::string source =
        " Needs GPU metrics: nsys's GPU_METRICS (nsys profile --gpu-metrics-devices) or gsys's "
        "GSYS_GPU_METRICS (gsys profile --gpu-metrics-devices; no SM Issue there).";
    if (kind_ == Kind::kNvlink) {
      return "Statistics of nsys's eight NVLink TX/RX request/response user/protocol data "
             "throughput metrics (samples > 0), per rank (all_stats.csv) and per rank and GPU "
             "(stats_by_gpu.csv). gsys reports have NVLink byte counters, not these metrics: "
             "their ranks are skipped." +
             source;
    }
    if (kind_ == Kind::kUtilSum) {
      return "Statistics of every GPU metric the report samples, per rank, GPU ID and Metric "
             "Name (rank_stats.csv)." +
             source;
    }
    return "Mean SMs Active, SM Issue and Tensor Active (%) per rank, GPU and time bin "
           "(analysis.csv; --bins; bins without samples left out; Duration = bin start in ns "
           "from the earliest aligned sample)." +
           source;
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override { return {GpuMetricsNeed()}; }
  std::vector<std::string> ExtentTables() const override {
    if (kind_ != Kind::kUtilMap) return {};
    return {"GSYS_GPU_METRICS.timestamp", "GPU_METRICS.timestamp"};
  }

  Result<Bundle> Map(MapContext& ctx) const override {
    if (kind_ == Kind::kUtilMap) return MapBins(ctx, UtilMetrics());
    std::vector<MetricSpec> metrics = NvlinkMetrics();
    if (kind_ == Kind::kUtilSum) {
      GSYS_ASSIGN_OR_RETURN(metrics, AllMetrics(ctx.reader));
    }
    std::map<std::pair<int64_t, size_t>, std::vector<int64_t>> values;  // (gpu, metric)
    GSYS_RETURN_IF_ERROR(ForEachMetricSample(ctx.reader, metrics, ctx.options.filter_start,
                                             ctx.options.filter_end,
                                             [&](int64_t, int64_t gpu, size_t m, double v) {
                                               auto value = static_cast<int64_t>(v);
                                               if (kind_ == Kind::kNvlink && value <= 0) return;
                                               values[{gpu, m}].push_back(value);
                                             }));
    if (values.empty()) {
      ctx.skip_reason =
          std::string("does not contain ") +
          (kind_ == Kind::kNvlink ? "NVLink throughput metrics" : "GPU metric samples");
    }
    if (kind_ == Kind::kUtilSum) return Bundle{{"rank_stats", UtilSumRows(metrics, values)}};
    return NvlinkRows(ctx, metrics, values);
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions&,
                              const GlobalParams& p) const override {
    RecipeResult result;
    if (kind_ == Kind::kUtilMap) return ReduceBins(ranks, p);
    // nsys's nvlink_sum: all_stats = per rank and metric; stats_by_gpu = per rank, metric, GPU.
    // gpu_metric_util_sum: rank_stats = per rank, GPU and metric (nsys writes no all_stats).
    std::vector<std::string> names = kind_ == Kind::kNvlink
                                         ? std::vector<std::string>{"all_stats", "stats_by_gpu"}
                                         : std::vector<std::string>{"rank_stats"};
    result.blocks.emplace_back(help());
    for (const std::string& name : names) {
      Frame all;
      for (const RankResult& r : MappedRanks(ranks)) {
        AppendRows(&all, WithRank(r.bundle->at(name), r.info->rank));
      }
      if (all.columns.empty()) all = WithRank(EmptyStats(name), 0);
      result.blocks.emplace_back(TableBlock(name, all));
      result.tables.push_back({name, std::move(all)});
    }
    if (kind_ == Kind::kUtilSum) Summarize(result.tables.front().frame, &result.summary);
    return result;
  }

 private:
  // The column names of table `name` with no rows (every rank skipped).
  Frame EmptyStats(const std::string& name) const {
    Frame f;
    f.columns = name == "rank_stats"     ? std::vector<std::string>{"GPU ID", "Metric Name"}
                : name == "stats_by_gpu" ? std::vector<std::string>{"Metric Name", "GPU"}
                                         : std::vector<std::string>{"Metric Name"};
    for (const auto& c : DescribeColumns()) f.columns.push_back(c);
    return f;
  }

  // gpu_metric_util_sum: GPU ID, Metric Name + describe, GPUs ascending, metrics in AllMetrics
  // order (nsys's describe over the pivoted metric columns).
  Frame UtilSumRows(const std::vector<MetricSpec>& metrics,
                    std::map<std::pair<int64_t, size_t>, std::vector<int64_t>>& values) const {
    Frame f = EmptyStats("rank_stats");
    for (auto& [key, list] : values) {
      std::vector<Cell> row = {key.first, metrics[key.second].name};
      for (Cell& c : DescribeCells(DescribeValues(list))) row.push_back(std::move(c));
      f.rows.push_back(std::move(row));
    }
    return f;
  }

  // nvlink_sum: per metric, and per metric and "BUS - NAME" GPU label, in name order (pandas
  // groupby sorts its keys).
  Result<Bundle> NvlinkRows(
      MapContext& ctx, const std::vector<MetricSpec>& metrics,
      std::map<std::pair<int64_t, size_t>, std::vector<int64_t>>& values) const {
    GSYS_ASSIGN_OR_RETURN(auto labels, GpuLabels(ctx.reader));
    std::map<int64_t, std::string> label(labels.begin(), labels.end());
    std::map<std::pair<std::string, std::string>, std::vector<int64_t>> by_gpu;
    std::map<std::string, std::vector<int64_t>> per_metric;
    for (auto& [key, list] : values) {
      auto it = label.find(key.first);
      const std::string& name = metrics[key.second].name;
      auto& g = by_gpu[{name, it == label.end() ? std::to_string(key.first) : it->second}];
      g.insert(g.end(), list.begin(), list.end());
      auto& m = per_metric[name];
      m.insert(m.end(), list.begin(), list.end());
    }
    Frame gpu_frame = EmptyStats("stats_by_gpu"), metric_frame = EmptyStats("all_stats");
    for (auto& [key, list] : by_gpu) {
      std::vector<Cell> row = {key.first, key.second};
      for (Cell& c : DescribeCells(DescribeValues(list))) row.push_back(std::move(c));
      gpu_frame.rows.push_back(std::move(row));
    }
    for (auto& [name, list] : per_metric) {
      std::vector<Cell> row = {name};
      for (Cell& c : DescribeCells(DescribeValues(list))) row.push_back(std::move(c));
      metric_frame.rows.push_back(std::move(row));
    }
    return Bundle{{"all_stats", std::move(metric_frame)}, {"stats_by_gpu", std::move(gpu_frame)}};
  }

  // One terminal line per metric: its mean over every rank and GPU (Sum / Count).
  static void Summarize(const Frame& rank_stats, std::vector<std::string>* lines) {
    std::map<std::string, std::pair<int64_t, int64_t>> totals;  // name -> (sum, count)
    std::vector<std::string> order;
    for (const auto& row : rank_stats.rows) {
      std::string name = CellString(row[2]);
      if (!totals.count(name)) order.push_back(name);
      totals[name].first += CellInt(row.back());
      totals[name].second += CellInt(row[3]);
    }
    for (const std::string& name : order) {
      auto [sum, count] = totals[name];
      lines->push_back(name + ": mean " +
                       CellText(Round1(static_cast<double>(sum) / static_cast<double>(count))) +
                       " over " + std::to_string(count) + " samples");
    }
  }

  // Per GPU and bin: the mean of each metric's samples in the bin (1 decimal).
  Result<Bundle> MapBins(MapContext& ctx, const std::vector<MetricSpec>& metrics) const {
    const GlobalParams& p = ctx.params;
    int last = std::max(p.bins, 1) - 1;
    // (gpu, bin) -> per metric (sum, count)
    std::map<std::pair<int64_t, int>, std::vector<std::pair<int64_t, int64_t>>> acc;
    GSYS_RETURN_IF_ERROR(ForEachMetricSample(
        ctx.reader, metrics, ctx.options.filter_start, ctx.options.filter_end,
        [&](int64_t ts, int64_t gpu, size_t m, double v) {
          if (p.bin_size <= 0) return;
          int64_t at = SaturatingSub(SaturatingAdd(ts, ctx.info.offset), p.origin);
          int bin = static_cast<int>(std::clamp<int64_t>(at / p.bin_size, 0, last));
          auto& cell = acc[{gpu, bin}];
          cell.resize(metrics.size(), {0, 0});
          cell[m].first = SaturatingAdd(cell[m].first, static_cast<int64_t>(v));
          cell[m].second++;
        }));
    if (acc.empty()) ctx.skip_reason = "does not contain SM or tensor activity metrics";
    Frame f;
    f.columns = {"Duration"};
    for (const MetricSpec& m : metrics) f.columns.push_back(m.name);
    f.columns.push_back("GPU");
    for (const auto& [key, cells] : acc) {
      std::vector<Cell> row = {SaturatingMul(static_cast<int64_t>(key.second), p.bin_size)};
      for (const auto& [sum, count] : cells) {
        if (count == 0) {
          row.emplace_back(std::monostate{});
        } else {
          row.emplace_back(Round1(static_cast<double>(sum) / static_cast<double>(count)));
        }
      }
      row.emplace_back(key.first);
      f.rows.push_back(std::move(row));
    }
    return Bundle{{"analysis", std::move(f)}};
  }

  Result<RecipeResult> ReduceBins(const std::vector<RankResult>& ranks,
                                  const GlobalParams& p) const {
    RecipeResult result;
    Frame all;
    for (const RankResult& r : MappedRanks(ranks)) {
      AppendRows(&all, WithRank(r.bundle->at("analysis"), r.info->rank));
    }
    if (all.columns.empty()) {
      all.columns = {"Rank", "Duration", "SMs Active", "SM Issue", "Tensor Active", "GPU"};
    }
    result.blocks.emplace_back("Mean GPU metric per time bin (" + std::to_string(p.bins) +
                               " bins of " + HumanNs(static_cast<double>(p.bin_size)) +
                               "), per rank and GPU; bins without samples are left out.");
    for (const MetricSpec& m : UtilMetrics()) {
      html::HeatMap map;
      map.title = m.name + " %";
      for (int b = 0; b < p.bins; ++b) {
        map.bin_starts_s.push_back(static_cast<double>(b) * static_cast<double>(p.bin_size) / 1e9);
      }
      size_t col = static_cast<size_t>(all.Column(m.name));
      std::map<std::pair<int64_t, int64_t>, size_t> index;
      for (const auto& row : all.rows) {
        std::pair<int64_t, int64_t> key{CellInt(row[0]), CellInt(row.back())};
        auto [it, added] = index.emplace(key, map.values.size());
        if (added) {
          map.row_labels.push_back("rank " + std::to_string(key.first) + " GPU " +
                                   std::to_string(key.second));
          map.values.emplace_back(static_cast<size_t>(std::max(p.bins, 0)), std::nan(""));
        }
        size_t bin = p.bin_size > 0 ? static_cast<size_t>(CellInt(row[1]) / p.bin_size) : 0;
        if (bin < map.values[it->second].size()) {
          map.values[it->second][bin] = CellDouble(row[col]);
        }
      }
      result.blocks.emplace_back(std::move(map));
    }
    result.blocks.emplace_back(TableBlock("analysis", all));
    result.tables.push_back({"analysis", std::move(all)});
    return result;
  }

  Kind kind_;
};

}  // namespace

std::unique_ptr<Recipe> MakeGpuMetricsRecipe(const std::string& name) {
  if (name == "gpu_metric_util_map") return std::make_unique<GpuMetricsRecipe>(Kind::kUtilMap);
  if (name == "gpu_metric_util_sum") return std::make_unique<GpuMetricsRecipe>(Kind::kUtilSum);
  if (name == "nvlink_sum") return std::make_unique<GpuMetricsRecipe>(Kind::kNvlink);
  return nullptr;
}

}  // namespace gsys::analysis::recipe
