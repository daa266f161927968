// SPDX-License-Identifier: Apache-2.0
// nvtx_pace, cuda_gpu_kern_pace and nvtx_gpu_proj_pace: the instances of one named NVTX range,
// kernel, or NVTX range projected onto the GPU (--name), in start order, per rank: iteration i's
// duration (end - start), delta (start_i - end_{i-1}, with end_{-1} = 0 as nsys computes it, so
// the first delta is the first start on the rank's own timeline) and their running sums, with
// start and end aligned across ranks. nsys's tables: stats (the duration statistics of all ranks
// merged), pace_<column> (one column per rank, one row per iteration) and pace_delta_stats (the
// deltas of each iteration over the ranks). gsys adds pace (the same values, one row per rank and
// iteration) and rank_summary (stragglers: how far each rank lags the earliest at the same
// iteration). The pace rows of a rank go to a part on disk; Reduce reads them back once.
#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <optional>

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
           " per rank: start, end, duration, delta (start minus the previous end; the first: "
           "its start) and their running sums, as nsys's pace_<column>.csv (a column per rank) "
           "and gsys's pace.csv (a row per rank and iteration); the duration statistics of all "
           "ranks (stats.csv), the deltas per iteration (pace_delta_stats.csv) and stragglers "
           "(rank_summary.csv: mean lag behind the earliest rank at the same iteration).";
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    if (nvtx_) return {{{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"}};
    if (source_ == PaceSource::kKernel) {
      return {{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"}};
    }
    return {
        {{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"},
        {{"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"},
         "GPU trace data"},
        {{"CUPTI_ACTIVITY_KIND_RUNTIME"}, "CUDA API data"}};
  }
  std::vector<std::string> SpilledTables() const override { return {"pace"}; }
  Status Validate(const RecipeOptions& options) const override {
    if (options.range_name.empty() && !nvtx_) {
      return Error(StatusCode::kInvalidArgument,
                   "recipe: " + name() + " needs --name " +
                       (nvtx_ || source_ == PaceSource::kProjected ? "RANGE" : "KERNEL"));
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
    f.columns = {"Iteration", "Start", "End", "Duration", "Delta", "Duration Accum", "Delta Accum"};
    int64_t prev_end = 0, dur_acc = 0, delta_acc = 0, offset = ctx.info.offset;
    for (const auto& [start, end] : instances) {
      // Saturating: report times are untrusted (issue 17, item 7).
      int64_t delta = SaturatingSub(start, prev_end);  // prev_end = 0 before the first
      int64_t dur = SaturatingSub(end, start);
      dur_acc = SaturatingAdd(dur_acc, dur);
      delta_acc = SaturatingAdd(delta_acc, delta);
      std::vector<Cell>& row = f.rows.emplace_back();
      for (int64_t v : {static_cast<int64_t>(f.rows.size() - 1), SaturatingAdd(start, offset),
                        SaturatingAdd(end, offset), dur, delta, dur_acc, delta_acc}) {
        row.emplace_back(v);
      }
      prev_end = end;
    }
    if (f.rows.empty()) {
      const char* what = nvtx_                            ? "NVTX range"
                         : source_ == PaceSource::kKernel ? "kernel"
                                                          : "NVTX range with GPU work";
      ctx.skip_reason = std::string("has no ") + what + " named '" + range + "'";
      return Bundle{{"pace", std::move(f)}};
    }
    // This rank's statistics; the pace rows go to a part on disk (Recipe::SpilledTables).
    std::vector<int64_t> dur, gaps;
    for (const auto& row : f.rows) {
      dur.push_back(CellInt(row[3]));
      if (dur.size() > 1) gaps.push_back(CellInt(row[4]));
    }
    Describe dd = DescribeValues(dur);
    Frame stats, info;
    stats.columns = DescribeColumns();
    stats.rows.push_back(DescribeCells(dd));
    info.columns = {"Iterations", "Mean Duration", "Mean Gap", "Last End", "Range"};
    std::vector<Cell> row = {static_cast<int64_t>(f.rows.size()), dd.mean, std::monostate{},
                             f.rows.back()[2], range};
    if (!gaps.empty()) row[2] = DescribeValues(gaps).mean;
    info.rows.push_back(std::move(row));
    return Bundle{{"pace", std::move(f)}, {"stats", std::move(stats)}, {"info", std::move(info)}};
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions& options,
                              const GlobalParams&) const override {
    RecipeResult result;
    auto mapped = MappedRanks(ranks);
    GSYS_ASSIGN_OR_RETURN(std::vector<PaceColumns> values, ReadPace(mapped));
    size_t iterations = 0;
    for (const PaceColumns& v : values) iterations = std::max(iterations, v[kStart].size());
    // Earliest aligned start of each iteration over all ranks, for the lag.
    std::vector<int64_t> earliest(iterations, INT64_MAX);
    for (const PaceColumns& v : values) {
      for (size_t i = 0; i < v[kStart].size(); ++i) {
        earliest[i] = std::min(earliest[i], v[kStart][i]);
      }
    }
    Frame summary;
    summary.columns = {"Rank", "Iterations", "Mean Duration", "Mean Gap", "Mean Lag", "Last End"};
    html::LineChart durations{"Duration per iteration", "iteration", "ms", {}};
    html::LineChart deltas{"Delta (gap before the iteration) per iteration", "iteration", "ms", {}};
    html::BarChart lags{"Mean lag behind the earliest rank", "ms", {}, {}};
    for (size_t k = 0; k < mapped.size(); ++k) {
      const PaceColumns& v = values[k];
      int64_t rank = mapped[k].info->rank;
      html::LineSeries sd{"rank " + std::to_string(rank), {}, {}}, sg = sd;
      long double lag = 0;
      for (size_t i = 0; i < v[kStart].size(); ++i) {
        lag += static_cast<long double>(SaturatingSub(v[kStart][i], earliest[i]));
        sd.x.push_back(static_cast<double>(i));
        sd.y.push_back(static_cast<double>(v[kDuration][i]) / 1e6);
        sg.x.push_back(static_cast<double>(i));
        sg.y.push_back(static_cast<double>(v[kDelta][i]) / 1e6);
      }
      const std::vector<Cell>& info = mapped[k].bundle->at("info").rows.at(0);
      int64_t count = CellInt(info[0]);
      double mean_lag = Round1(static_cast<double>(lag / static_cast<long double>(count)));
      summary.rows.push_back({rank, count, info[1], info[2], mean_lag, info[3]});
      durations.series.push_back(std::move(sd));
      deltas.series.push_back(std::move(sg));
      lags.labels.push_back("rank " + std::to_string(rank));
      lags.values.push_back(mean_lag / 1e6);
    }
    Frame stats = MergedStats(mapped), delta_stats = DeltaStats(values, iterations);
    result.tables.push_back({"stats", stats});
    for (const auto& [file, column] : kWideTables) {
      result.tables.push_back(
          {std::string("pace_") + file, WideTable(mapped, values, column, iterations)});
    }
    result.tables.push_back({"pace_delta_stats", delta_stats});
    result.tables.push_back(StackedTable("pace", ranks, "pace",
                                         {"Rank", "Iteration", "Start", "End", "Duration", "Delta",
                                          "Duration Accum", "Delta Accum"}));
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
    result.blocks.emplace_back(TableBlock("stats (duration, all ranks)", stats));
    result.blocks.emplace_back(TableBlock("pace_delta_stats (per iteration)", delta_stats));
    Summarize(summary, &result.summary);
    return result;
  }

 private:
  // A rank's pace values by column (kStart..kDeltaAccum), one entry per iteration.
  enum PaceColumn { kStart, kEnd, kDuration, kDelta, kDurationAccum, kDeltaAccum, kColumns };
  using PaceColumns = std::array<std::vector<int64_t>, kColumns>;
  // nsys's pace_<name> tables, in the order nsys writes them.
  static constexpr std::pair<const char*, PaceColumn> kWideTables[] = {
      {"start", kStart},
      {"end", kEnd},
      {"duration_accum", kDurationAccum},
      {"delta_accum", kDeltaAccum},
      {"duration", kDuration},
      {"delta", kDelta}};

  // Every mapped rank's pace part read back (lines: Rank, Iteration, then the six columns).
  // Memory: 48 bytes per rank and iteration, what the wide tables need at once.
  static Result<std::vector<PaceColumns>> ReadPace(const std::vector<RankResult>& mapped) {
    std::vector<PaceColumns> out(mapped.size());
    std::vector<int64_t> fields;
    for (size_t k = 0; k < mapped.size(); ++k) {
      GSYS_RETURN_IF_ERROR(
          ForEachRecord({mapped[k].parts->at("pace").path}, [&](const std::string& line) {
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
            if (fields.size() != 2 + kColumns) return true;
            for (size_t c = 0; c < kColumns; ++c) out[k][c].push_back(fields[2 + c]);
            return true;
          }));
    }
    return out;
  }

  // nsys's stats: the ranks' duration statistics merged per range name (all_stats's rules).
  Frame MergedStats(const std::vector<RankResult>& mapped) const {
    Frame f;
    // nsys titles its grouping column: "text" -> "Text", "shortName" -> "Shortname".
    f.columns = {source_ == PaceSource::kKernel ? "Shortname" : "Text"};
    for (const auto& c : MergedColumns()) f.columns.push_back(c);
    std::map<std::string, std::vector<Describe>> per_name;
    for (const RankResult& r : mapped) {
      per_name[CellText(r.bundle->at("info").rows.at(0).at(4))].push_back(
          DescribeFromRow(r.bundle->at("stats").rows.at(0), 0));
    }
    for (const auto& [name, list] : per_name) {
      std::vector<Cell> row = {name};
      for (Cell& c : MergeDescribe(list)) row.push_back(std::move(c));
      f.rows.push_back(std::move(row));
    }
    return f;
  }

  // One column per rank (named by its number), one row per iteration; a rank with fewer
  // iterations has empty cells.
  static Frame WideTable(const std::vector<RankResult>& mapped,
                         const std::vector<PaceColumns>& values, PaceColumn column,
                         size_t iterations) {
    Frame f;
    for (const RankResult& r : mapped) f.columns.push_back(std::to_string(r.info->rank));
    for (size_t i = 0; i < iterations; ++i) {
      std::vector<Cell> row;
      for (const PaceColumns& v : values) {
        const auto& list = v[column];
        if (i < list.size()) {
          row.emplace_back(list[i]);
        } else {
          row.emplace_back(std::monostate{});
        }
      }
      f.rows.push_back(std::move(row));
    }
    return f;
  }

  // nsys's pace_delta_stats: per iteration, the deltas of the ranks that have it described
  // (pandas describe + sum, not rounded; all doubles, as pandas leaves them after transposing).
  static Frame DeltaStats(const std::vector<PaceColumns>& values, size_t iterations) {
    Frame f;
    f.columns = DescribeColumns();
    for (size_t i = 0; i < iterations; ++i) {
      std::vector<double> d;
      for (const PaceColumns& v : values) {
        if (i < v[kDelta].size()) d.push_back(static_cast<double>(v[kDelta][i]));
      }
      std::sort(d.begin(), d.end());
      long double sum = 0;
      for (double x : d) sum += x;
      double n = static_cast<double>(d.size());
      double mean = static_cast<double>(sum / d.size());
      Cell sd = std::monostate{};
      if (d.size() > 1) {
        long double ss = 0;
        for (double x : d) ss += (x - mean) * (x - mean);
        sd = static_cast<double>(std::sqrt(ss / (d.size() - 1)));
      }
      f.rows.push_back({n, mean, sd, d.front(), Quantile(d, 0.25), Quantile(d, 0.5),
                        Quantile(d, 0.75), d.back(), static_cast<double>(sum)});
    }
    return f;
  }

  static void Summarize(const Frame& summary, std::vector<std::string>* lines) {
    if (summary.rows.empty()) return;
    auto by = [&](size_t col) {
      return std::max_element(
          summary.rows.begin(), summary.rows.end(),
          [col](const auto& a, const auto& b) { return CellDouble(a[col]) < CellDouble(b[col]); });
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
                       HumanNs(CellDouble((*lag)[4])) + " after the earliest rank on average)");
    }
  }

  // (start, end) of every instance of `range` in start order: from `sql`, or for the projection
  // from the nvtx_gpu_proj_trace stats report (projected times).
  Result<std::vector<std::pair<int64_t, int64_t>>> Instances(MapContext& ctx,
                                                             const std::string& sql,
                                                             const std::string& range) const {
    std::vector<std::pair<int64_t, int64_t>> out;
    if (source_ == PaceSource::kProjected) {
      GSYS_ASSIGN_OR_RETURN(ReportOutcome proj, RunReport(ctx.reader, {"nvtx_gpu_proj_trace", {}}));
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
