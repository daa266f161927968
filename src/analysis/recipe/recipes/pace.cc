// SPDX-License-Identifier: Apache-2.0
// nvtx_pace, cuda_gpu_kern_pace and nvtx_gpu_proj_pace: the instances of one named NVTX range,
// kernel, or NVTX range projected onto the GPU (--name), in start order, per rank: iteration i's duration (end - start), delta (start_i - end_{i-1}, 0 for
// the first) and their running sums, with times aligned across ranks. Across ranks: per-rank
// statistics and how far each rank lags the earliest rank at the same iteration (stragglers).
// The pace rows of a rank go to a part on disk; Reduce reads the parts back twice, line by line.
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <map>

#include "analysis/recipe/describe.h"
#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/recipes.h"
#include "analysis/recipe/spill.h"
#include "analysis/stats/stats.h"
#include "common/saturating.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

enum class PaceSource { kNvtx, kKernel, kProjected };

// The text of a projected range's "domain:text" name (nvtx_gpu_proj_trace's Name column).
std::string_view RangeText(std::string_view name) {
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

class PaceRecipe : public Recipe {
 public:
  explicit PaceRecipe(PaceSource source) : source_(source), nvtx_(source == PaceSource::kNvtx) {}
  std::string name() const override {
    if (source_ == PaceSource::kProjected) return "nvtx_gpu_proj_pace";
    return nvtx_ ? "nvtx_pace" : "cuda_gpu_kern_pace";
  }
  std::string title() const override {
    if (source_ == PaceSource::kProjected) return "NVTX GPU Projection Pace";
    return nvtx_ ? "NVTX Pace" : "CUDA GPU Kernel Pace";
  }
  std::string help() const override {
    std::string what =
        nvtx_ ? "NVTX range (--name TEXT: push/pop or start/end ranges with that text, any "
                "domain; without --name, the most frequent top-level range, ties by total time)"
        : source_ == PaceSource::kKernel
            ? "kernel (--name: its demangled, base or mangled name)"
            : "NVTX range projected onto the GPU (--name TEXT, any domain: from the start of the "
              "first to the end of the last GPU operation launched inside it, as "
              "nvtx_gpu_proj_trace projects it; ranges that launched no GPU work are left out)";
    return "Iterations of one " + what +
           " per rank: duration, delta (gap since the previous instance) and their running "
           "sums (pace.csv), per-rank statistics (stats.csv, delta_stats.csv) and stragglers "
           "(rank_summary.csv: mean lag behind the earliest rank at the same iteration).";
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    if (nvtx_) return {{{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"}};
    if (source_ == PaceSource::kKernel) {
      return {{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"}};
    }
    return {{{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"},
            {{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
              "CUPTI_ACTIVITY_KIND_MEMSET"},
             "GPU trace data"},
            {{"CUPTI_ACTIVITY_KIND_RUNTIME"}, "CUDA API data"}};
  }
  std::vector<std::string> SpilledTables() const override { return {"pace"}; }
  Status Validate(const RecipeOptions& options) const override {
    if (options.range_name.empty() && !nvtx_) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: " + name() + " needs --name " + (nvtx_ || source_ == PaceSource::kProjected ? "RANGE" : "KERNEL"));
    }
    return OkStatus();
  }

  Result<Bundle> Map(MapContext& ctx) const override {
    std::string sql =
        nvtx_ ? "SELECT n.start, n.end FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = "
                "n.textId WHERE n.eventType IN (59, 60, 70, 71) AND n.end IS NOT NULL AND "
                "coalesce(n.text, s.value) = ?1 ORDER BY n.start, n.end"
              : "WITH ids AS (SELECT id FROM StringIds WHERE value = ?1) SELECT k.start, k.end "
                "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k WHERE k.demangledName IN ids OR "
                "k.shortName IN ids OR k.mangledName IN ids ORDER BY k.start, k.end";
    std::string range = ctx.options.range_name;
    if (range.empty()) {  // nvtx_pace without --name: the range users mean (PickRange)
      GSYS_ASSIGN_OR_RETURN(range, PickRange(ctx));
      if (range.empty()) {
        ctx.skip_reason = "has no NVTX push/pop or start/end range";
        return Bundle{{"pace", Frame{}}};
      }
    }
    GSYS_ASSIGN_OR_RETURN(auto instances, Instances(ctx, sql, range));
    Frame f;
    f.columns = {"Iteration", "Start", "End", "Duration", "Delta", "Duration Accum",
                 "Delta Accum"};
    int64_t prev_end = 0, dur_acc = 0, delta_acc = 0, offset = ctx.info.offset;
    for (const auto& [start, end] : instances) {
      // Saturating: report times are untrusted (issue 17, item 7).
      int64_t delta = f.rows.empty() ? 0 : SaturatingSub(start, prev_end);
      int64_t dur = SaturatingSub(end, start);
      dur_acc = SaturatingAdd(dur_acc, dur);
      delta_acc = SaturatingAdd(delta_acc, delta);
      f.rows.push_back({static_cast<int64_t>(f.rows.size()), SaturatingAdd(start, offset),
                        SaturatingAdd(end, offset), dur, delta, dur_acc, delta_acc});
      prev_end = end;
    }
    if (f.rows.empty()) {
      const char* what = nvtx_                                 ? "NVTX range"
                         : source_ == PaceSource::kKernel ? "kernel"
                                                          : "NVTX range with GPU work";
      ctx.skip_reason = std::string("has no ") + what + " named '" + range + "'";
      return Bundle{{"pace", std::move(f)}};
    }
    // This rank's statistics; the pace rows go to a part on disk (Recipe::SpilledTables).
    std::vector<int64_t> dur, delta;
    for (const auto& row : f.rows) {
      dur.push_back(CellInt(row[3]));
      delta.push_back(CellInt(row[4]));
    }
    Describe dd = DescribeValues(dur), dg = DescribeValues(delta);
    Frame stats, delta_stats, info;
    stats.columns = delta_stats.columns = DescribeColumns();
    stats.rows.push_back(DescribeCells(dd));
    delta_stats.rows.push_back(DescribeCells(dg));
    info.columns = {"Iterations", "Mean Duration", "Mean Delta", "Last End", "Range"};
    info.rows.push_back({static_cast<int64_t>(f.rows.size()), dd.mean, dg.mean, f.rows.back()[2],
                         range});
    return Bundle{{"pace", std::move(f)},
                  {"stats", std::move(stats)},
                  {"delta_stats", std::move(delta_stats)},
                  {"info", std::move(info)}};
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions& options,
                              const GlobalParams&) const override {
    RecipeResult result;
    Frame stats, delta_stats, summary;
    stats.columns = delta_stats.columns = {"Rank"};
    for (const auto& c : DescribeColumns()) {
      stats.columns.push_back(c);
      delta_stats.columns.push_back(c);
    }
    summary.columns = {"Rank", "Iterations", "Mean Duration", "Mean Delta", "Mean Lag",
                       "Last End"};
    // Earliest start of each iteration over all ranks, for the lag (a first pass over the parts).
    std::vector<int64_t> earliest;
    auto mapped = MappedRanks(ranks);
    std::vector<int64_t> fields;
    auto parse = [&fields](const std::string& line) {
      fields.clear();
      const char* p = line.data();
      const char* end = p + line.size();
      while (true) {
        const char* comma = std::find(p, end, ',');
        int64_t v = 0;
        std::from_chars(p, comma, v);
        fields.push_back(v);
        if (comma == end) break;
        p = comma + 1;
      }
      return fields.size() == 8;  // Rank, Iteration, Start, End, Duration, Delta, 2 sums
    };
    for (const RankResult& r : mapped) {
      GSYS_RETURN_IF_ERROR(ForEachRecord({r.parts->at("pace").path}, [&](const std::string& l) {
        if (!parse(l)) return true;
        size_t it = static_cast<size_t>(fields[1]);
        if (it >= earliest.size()) earliest.resize(it + 1, INT64_MAX);
        earliest[it] = std::min(earliest[it], fields[2]);
        return true;
      }));
    }
    html::LineChart durations{"Duration per iteration", "iteration", "ms", {}};
    html::LineChart deltas{"Delta (gap before the iteration) per iteration", "iteration", "ms", {}};
    html::BarChart lags{"Mean lag behind the earliest rank", "ms", {}, {}};
    for (const RankResult& r : mapped) {
      html::LineSeries sd{"rank " + std::to_string(r.info->rank), {}, {}}, sg = sd;
      long double lag = 0;
      GSYS_RETURN_IF_ERROR(ForEachRecord({r.parts->at("pace").path}, [&](const std::string& l) {
        if (!parse(l)) return true;
        lag += static_cast<long double>(
            SaturatingSub(fields[2], earliest[static_cast<size_t>(fields[1])]));
        sd.x.push_back(static_cast<double>(fields[1]));
        sd.y.push_back(static_cast<double>(fields[4]) / 1e6);
        sg.x.push_back(static_cast<double>(fields[1]));
        sg.y.push_back(static_cast<double>(fields[5]) / 1e6);
        return true;
      }));
      int64_t rank = r.info->rank;
      const std::vector<Cell>& info = r.bundle->at("info").rows.at(0);
      std::vector<Cell> srow = {rank}, grow = {rank};
      for (const Cell& c : r.bundle->at("stats").rows.at(0)) srow.push_back(c);
      for (const Cell& c : r.bundle->at("delta_stats").rows.at(0)) grow.push_back(c);
      stats.rows.push_back(std::move(srow));
      delta_stats.rows.push_back(std::move(grow));
      int64_t iterations = CellInt(info[0]);
      double mean_lag = Round1(static_cast<double>(lag / static_cast<long double>(iterations)));
      summary.rows.push_back({rank, iterations, info[1], info[2], mean_lag, info[3]});
      durations.series.push_back(std::move(sd));
      deltas.series.push_back(std::move(sg));
      lags.labels.push_back("rank " + std::to_string(rank));
      lags.values.push_back(mean_lag / 1e6);
    }
    OutputTable pace = StackedTable("pace", ranks, "pace",
                                    {"Rank", "Iteration", "Start", "End", "Duration", "Delta",
                                     "Duration Accum", "Delta Accum"});
    result.tables.push_back(std::move(pace));
    result.tables.push_back({"stats", stats});
    result.tables.push_back({"delta_stats", delta_stats});
    result.tables.push_back({"rank_summary", summary});
    std::string range = options.range_name;
    if (range.empty()) {
      std::vector<std::string> picked;
      for (const RankResult& r : mapped) {
        std::string name = CellText(r.bundle->at("info").rows.at(0).at(4));
        if (std::find(picked.begin(), picked.end(), name) == picked.end()) picked.push_back(name);
      }
      std::string names;
      for (const auto& n : picked) names += (names.empty() ? "'" : ", '") + n + "'";
      range = picked.size() == 1 ? picked[0] : names;
      std::string why = "no --name: picked " + (picked.size() == 1 ? "'" + range + "'" : names) +
                        ", the most frequent top-level NVTX push/pop or start/end range" +
                        (picked.size() == 1 ? "" : " of each rank (they differ)") +
                        " (ties: the longest total time); --name RANGE picks another";
      result.notes.push_back("recipe: nvtx_pace: " + why);
      result.blocks.emplace_back(why + ".");
    }
    result.blocks.emplace_back("Instances of '" + range +
                               "' per rank, in start order (times aligned across ranks). A rank "
                               "whose iterations take longer, or that starts them later than "
                               "the others (lag), holds the others back.");
    result.blocks.emplace_back(std::move(durations));
    result.blocks.emplace_back(std::move(deltas));
    if (lags.labels.size() > 1) result.blocks.emplace_back(std::move(lags));
    result.blocks.emplace_back(TableBlock("rank_summary", summary));
    result.blocks.emplace_back(TableBlock("stats (duration)", stats));
    result.blocks.emplace_back(TableBlock("delta_stats", delta_stats));
    Summarize(summary, &result.summary);
    return result;
  }

 private:
  static void Summarize(const Frame& summary, std::vector<std::string>* lines) {
    if (summary.rows.empty()) return;
    auto by = [&](size_t col) {
      return std::max_element(summary.rows.begin(), summary.rows.end(),
                              [col](const auto& a, const auto& b) {
                                return CellDouble(a[col]) < CellDouble(b[col]);
                              });
    };
    std::vector<double> means;
    for (const auto& row : summary.rows) means.push_back(CellDouble(row[2]));
    std::sort(means.begin(), means.end());
    double median = Quantile(means, 0.5);
    auto slow = by(2);
    lines->push_back("slowest iterations: rank " + CellText((*slow)[0]) + " (mean " +
                     HumanNs(CellDouble((*slow)[2])) + ", median rank " + HumanNs(median) + ")");
    auto lag = by(4);
    if (summary.rows.size() > 1) {
      lines->push_back("most behind: rank " + CellText((*lag)[0]) + " (starts iterations " +
                       HumanNs(CellDouble((*lag)[4])) +
                       " after the earliest rank on average)");
    }
  }

  // (start, end) of every instance of `range` in start order: from `sql`, or for the projection
  // from the nvtx_gpu_proj_trace stats report (projected times).
  Result<std::vector<std::pair<int64_t, int64_t>>> Instances(MapContext& ctx,
                                                             const std::string& sql,
                                                             const std::string& range) const {
    std::vector<std::pair<int64_t, int64_t>> out;
    if (source_ == PaceSource::kProjected) {
      GSYS_ASSIGN_OR_RETURN(ReportOutcome proj,
                            RunReport(ctx.reader, {"nvtx_gpu_proj_trace", {}}));
      for (const auto& row : proj.table.rows) {  // Name, Projected Start, Projected Duration
        if (RangeText(CellString(row[0])) != range) continue;
        int64_t start = CellInt(row[1]);
        out.push_back({start, SaturatingAdd(start, CellInt(row[2]))});
      }
      std::sort(out.begin(), out.end());
      return out;
    }
    GSYS_ASSIGN_OR_RETURN(report::Statement stmt, ctx.reader.db().Prepare(sql));
    GSYS_RETURN_IF_ERROR(stmt.BindText(1, range));
    while (true) {
      GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) break;
      out.push_back({stmt.ColumnInt(0), stmt.ColumnInt(1)});
    }
    return out;
  }

  // The most frequent top-level push/pop range (not inside another push/pop range of its
  // thread) or start/end range, ties broken by total time, then by name; "" when none.
  static Result<std::string> PickRange(MapContext& ctx) {
    GSYS_ASSIGN_OR_RETURN(
        report::Statement stmt,
        ctx.reader.db().Prepare(
            "WITH r AS (SELECT n.rowid AS id, n.start, n.end, n.globalTid, n.eventType, "
            "coalesce(n.text, s.value) AS name FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s "
            "ON s.id = n.textId WHERE n.eventType IN (59, 60, 70, 71) AND n.end IS NOT NULL) "
            "SELECT name, count(*) AS c, sum(end - start) AS t FROM r WHERE name IS NOT NULL AND "
            "(eventType IN (60, 71) OR NOT EXISTS (SELECT 1 FROM r AS p WHERE p.eventType IN "
            "(59, 70) AND p.globalTid = r.globalTid AND p.id != r.id AND p.start <= r.start AND "
            "p.end >= r.end)) GROUP BY name ORDER BY c DESC, t DESC, name LIMIT 1"));
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    return row ? std::string(stmt.ColumnText(0)) : std::string();
  }

  PaceSource source_;
  bool nvtx_;  // nvtx_pace: --name may be left out, the range is picked
};

}  // namespace

std::unique_ptr<Recipe> MakePaceRecipe(const std::string& name) {
  if (name == "nvtx_pace") return std::make_unique<PaceRecipe>(PaceSource::kNvtx);
  if (name == "cuda_gpu_kern_pace") return std::make_unique<PaceRecipe>(PaceSource::kKernel);
  if (name == "nvtx_gpu_proj_pace") return std::make_unique<PaceRecipe>(PaceSource::kProjected);
  return nullptr;
}

}  // namespace gsys::analysis::recipe
