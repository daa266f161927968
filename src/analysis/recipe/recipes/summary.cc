// SPDX-License-Identifier: Apache-2.0
// The "Summary" recipes (cuda_api_sum, cuda_gpu_kern_sum, cuda_gpu_mem_time_sum,
// cuda_gpu_mem_size_sum, nvtx_sum, osrt_sum, nccl_sum, nccl_gpu_proj_sum, mpi_sum): per rank, the
// durations (or sizes) of one event table grouped by name and described (Count, Mean, Std, Min, Q1,
// Median, Q3, Max, Sum); across ranks, nsys's all_stats approximations. Map streams (device,
// stream, key, value) rows out of SQLite and keeps one value vector per group, so memory is 8 bytes
// per event of the rank.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analysis/recipe/describe.h"
#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/recipes.h"
#include "analysis/stats/stats.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

enum class KeyKind { kStringId, kApiName, kCopyKind, kText };

struct SummarySpec {
  std::string name, title, help;
  DataNeed need;
  std::string key_label;  // the name column: "Name", "Range", "Text"
  bool gpu = false;       // device/stream columns exist: rank_stats_by_device, --per-gpu
  KeyKind key_kind = KeyKind::kStringId;
  std::string unit;  // "ns" or "B", for the page
};

// NVTX range names: "<domain>:<text>" outside the default domain, as nsys's nvtx_sum shows them.
constexpr const char* kNvtxNamed = R"(
  WITH doms AS (
    SELECT domainId AS id, globalTid & 0x0000FFFFFF000000 AS pid,
           min(coalesce(text, (SELECT value FROM StringIds WHERE id = textId))) AS name
    FROM NVTX_EVENTS WHERE eventType = 75 GROUP BY 1, 2),
  ranges AS (
    SELECT n.start, n.end, n.domainId, d.name AS domain,
           coalesce(n.text, s.value, '') AS text
    FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId
    LEFT JOIN doms AS d ON d.id = n.domainId AND d.pid = (n.globalTid & 0x0000FFFFFF000000)
    WHERE n.eventType IN (59, 60, 70, 71) AND n.end IS NOT NULL))";

std::string SourceSql(const SummarySpec& spec, const RecipeOptions& options) {
  const std::string& n = spec.name;
  if (n == "cuda_api_sum") {
    return "SELECT NULL, NULL, nameId, end - start FROM CUPTI_ACTIVITY_KIND_RUNTIME";
  }
  if (n == "osrt_sum") return "SELECT NULL, NULL, nameId, end - start FROM OSRT_API";
  if (n == "mpi_sum") {  // nsys's MPI composite table: every MPI event table, duration > 0
    std::string sql;
    for (const char* t : {"MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS", "MPI_START_WAIT_EVENTS",
                          "MPI_OTHER_EVENTS"}) {
      sql += std::string(sql.empty() ? "" : " UNION ALL ") +
             "SELECT NULL, NULL, textId, end - start FROM " + t + " WHERE end > start";
    }
    return sql;
  }
  if (n == "cuda_gpu_kern_sum") {
    return "SELECT deviceId, streamId, " + KernelNameExpr(options.name_variant) +
           ", end - start FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end > start";
  }
  std::string value = n == "cuda_gpu_mem_size_sum" ? "bytes" : "end - start";
  if (n == "cuda_gpu_mem_time_sum" || n == "cuda_gpu_mem_size_sum") {
    return "SELECT deviceId, streamId, copyKind, " + value +
           " FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT deviceId, streamId, -1, " + value +
           " FROM CUPTI_ACTIVITY_KIND_MEMSET";
  }
  if (n == "nvtx_sum") {
    return std::string(kNvtxNamed) +
           " SELECT NULL, NULL, CASE WHEN domain IS NULL THEN text ELSE domain || ':' || text "
           "END, end - start FROM ranges";
  }
  // nccl_sum: NCCL's own NVTX annotations (domain "NCCL"). Where the domain's name row is
  // missing (a time-sliced export), ranges outside the default domain named nccl* count too.
  return std::string(kNvtxNamed) +
         " SELECT NULL, NULL, text, end - start FROM ranges WHERE end > start AND "
         "(domain = 'NCCL' OR (domain IS NULL AND domainId <> 0 AND text LIKE 'nccl%'))";
}

std::string CopyKindName(int64_t kind) {
  static const char* kKinds[] = {"Unknown",
                                 "Host-to-Device",
                                 "Device-to-Host",
                                 "Host-to-Array",
                                 "Array-to-Host",
                                 "Array-to-Array",
                                 "Array-to-Device",
                                 "Device-to-Array",
                                 "Device-to-Device",
                                 "Host-to-Host",
                                 "Peer-to-Peer",
                                 "Unified Host-to-Device",
                                 "Unified Device-to-Host",
                                 "Unified Device-to-Device"};
  if (kind == -1) return "[CUDA memset]";
  if (kind >= 0 && kind < 14) return std::string("[CUDA memcpy ") + kKinds[kind] + "]";
  return "[CUDA memcpy " + std::to_string(kind) + "]";
}

// Finest group: device, stream, key (id or text).
using GroupKey = std::tuple<int64_t, int64_t, int64_t, std::string>;

class SummaryRecipe : public Recipe {
 public:
  explicit SummaryRecipe(SummarySpec spec) : spec_(std::move(spec)) {}
  std::string name() const override { return spec_.name; }
  std::string title() const override { return spec_.title; }
  std::string help() const override { return spec_.help; }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override { return {spec_.need}; }

  Result<Bundle> Map(MapContext& ctx) const override {
    std::map<GroupKey, std::vector<int64_t>> groups;
    bool text_key = spec_.key_kind == KeyKind::kText;
    if (spec_.name == "nccl_gpu_proj_sum") {
      GSYS_RETURN_IF_ERROR(ProjectedNccl(ctx, &groups));
    } else {
      GSYS_RETURN_IF_ERROR(
          ForEachRow(ctx.reader.db(), SourceSql(spec_, ctx.options), [&](report::Statement& s) {
            if (s.IsNull(3)) return OkStatus();
            GroupKey key{s.IsNull(0) ? -1 : s.ColumnInt(0), s.IsNull(1) ? -1 : s.ColumnInt(1),
                         text_key ? 0 : s.ColumnInt(2),
                         text_key ? std::string(s.ColumnText(2)) : std::string()};
            groups[std::move(key)].push_back(s.ColumnInt(3));
            return OkStatus();
          }));
    }
    GSYS_ASSIGN_OR_RETURN(auto names, Names(ctx.reader.db(), groups));
    Bundle bundle;
    bundle["rank_stats"] =
        Group(groups, names, spec_.gpu && ctx.options.per_gpu, spec_.gpu && ctx.options.per_stream);
    if (spec_.gpu) bundle["rank_stats_by_device"] = Group(groups, names, true, false);
    return bundle;
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions&,
                              const GlobalParams&) const override {
    RecipeResult result;
    Frame rank_stats, by_device;
    for (const RankResult& r : MappedRanks(ranks)) {
      AppendRows(&rank_stats, WithRank(r.bundle->at("rank_stats"), r.info->rank));
      if (spec_.gpu) {
        AppendRows(&by_device, WithRank(r.bundle->at("rank_stats_by_device"), r.info->rank));
      }
    }
    Frame all_stats = AllStats(rank_stats);
    result.tables.push_back({"all_stats", all_stats});
    result.tables.push_back({"rank_stats", rank_stats});
    if (spec_.gpu) result.tables.push_back({"rank_stats_by_device", by_device});
    AddPage(rank_stats, all_stats, &result);
    return result;
  }

 private:
  // nccl_gpu_proj_sum: NCCL's NVTX ranges (domain "NCCL") projected onto the GPU, as the
  // nvtx_gpu_proj_trace stats report projects them (ranges without GPU work are left out):
  // projected durations by range text. As nccl_sum does, where a time-sliced export lost the
  // domain's name row, ranges named nccl* outside the default domain count too. Projected
  // durations of 0 are dropped, as nsys does.
  static Status ProjectedNccl(MapContext& ctx, std::map<GroupKey, std::vector<int64_t>>* groups) {
    GSYS_ASSIGN_OR_RETURN(ReportOutcome proj, RunReport(ctx.reader, {"nvtx_gpu_proj_trace", {}}));
    std::set<int64_t> other_domain;  // RangeIds (NVTX_EVENTS rowids) outside the default domain
    GSYS_RETURN_IF_ERROR(ForEachRow(ctx.reader.db(),
                                    "SELECT rowid FROM NVTX_EVENTS WHERE domainId <> 0 AND "
                                    "eventType IN (59, 60, 70, 71)",
                                    [&](report::Statement& s) {
                                      other_domain.insert(s.ColumnInt(0));
                                      return OkStatus();
                                    }));
    // nvtx_gpu_proj_trace: Name ("domain:text"), Projected Start, Projected Duration, ... RangeId
    size_t range_id = 0;
    for (size_t c = 0; c < proj.table.columns.size(); ++c) {
      if (proj.table.columns[c].label == "RangeId") range_id = c;
    }
    for (const auto& row : proj.table.rows) {
      std::string name = CellString(row[0]);
      std::string text;
      if (StartsWith(name, "NCCL:")) {
        text = name.substr(5);
      } else if (StartsWith(name, ":") && range_id > 0 &&
                 other_domain.count(CellInt(row[range_id])) > 0 &&
                 ToLower(name.substr(1, 4)) == "nccl") {
        text = name.substr(1);
      } else {
        continue;
      }
      // nsys drops projections of zero length (a range whose only GPU work took no time).
      if (CellInt(row[2]) <= 0) continue;
      (*groups)[{-1, -1, 0, text}].push_back(CellInt(row[2]));
    }
    return OkStatus();
  }

  Result<std::map<int64_t, std::string>> Names(
      report::Database& db, const std::map<GroupKey, std::vector<int64_t>>& groups) const {
    std::map<int64_t, std::string> names;
    if (spec_.key_kind == KeyKind::kText) return names;
    std::set<int64_t> ids;
    for (const auto& [key, values] : groups) ids.insert(std::get<2>(key));
    if (spec_.key_kind == KeyKind::kCopyKind) {
      for (int64_t id : ids) names[id] = CopyKindName(id);
      return names;
    }
    GSYS_ASSIGN_OR_RETURN(names, LookupStrings(db, {ids.begin(), ids.end()}));
    if (spec_.key_kind == KeyKind::kApiName) {
      for (auto& [id, name] : names) {
        if (name.size() > 6 && name.compare(name.size() - 6, 2, "_v") == 0)
          name.resize(name.size() - 6);
      }
    }
    return names;
  }

  // Key columns (name, then Device ID / Stream ID when asked) + describe columns, sorted by
  // Sum descending, then key.
  Frame Group(const std::map<GroupKey, std::vector<int64_t>>& groups,
              const std::map<int64_t, std::string>& names, bool device, bool stream) const {
    std::map<std::tuple<std::string, int64_t, int64_t>, std::vector<int64_t>> merged;
    for (const auto& [key, values] : groups) {
      std::string name =
          spec_.key_kind == KeyKind::kText ? std::get<3>(key) : names.at(std::get<2>(key));
      auto& into = merged[{name, device ? std::get<0>(key) : -1, stream ? std::get<1>(key) : -1}];
      into.insert(into.end(), values.begin(), values.end());
    }
    Frame frame;
    frame.columns = {spec_.key_label};
    if (device) frame.columns.push_back("Device ID");
    if (stream) frame.columns.push_back("Stream ID");
    for (const auto& c : DescribeColumns()) frame.columns.push_back(c);
    for (auto& [key, values] : merged) {
      std::vector<Cell> row = {std::get<0>(key)};
      if (device) row.emplace_back(std::get<1>(key));
      if (stream) row.emplace_back(std::get<2>(key));
      for (Cell& c : DescribeCells(DescribeValues(values))) row.push_back(std::move(c));
      frame.rows.push_back(std::move(row));
    }
    size_t sum = frame.columns.size() - 1;
    std::stable_sort(frame.rows.begin(), frame.rows.end(), [sum](const auto& a, const auto& b) {
      return CellInt(a[sum]) > CellInt(b[sum]);
    });
    return frame;
  }

  // all_stats: one row per key (every column between Rank and Count), merged over ranks.
  Frame AllStats(const Frame& rank_stats) const {
    Frame out;
    int count_col = rank_stats.Column("Count");
    if (count_col < 0) {
      out.columns = {spec_.key_label};
      for (const auto& c : MergedColumns()) out.columns.push_back(c);
      return out;
    }
    size_t first = static_cast<size_t>(count_col);
    out.columns.assign(rank_stats.columns.begin() + 1, rank_stats.columns.begin() + count_col);
    for (const auto& c : MergedColumns()) out.columns.push_back(c);
    std::map<std::vector<std::string>, std::vector<Describe>> per_key;
    std::map<std::vector<std::string>, std::vector<Cell>> key_cells;
    for (const auto& row : rank_stats.rows) {
      std::vector<std::string> key;
      for (size_t c = 1; c < first; ++c) key.push_back(CellText(row[c]));
      per_key[key].push_back(DescribeFromRow(row, first));
      key_cells[key] = std::vector<Cell>(row.begin() + 1, row.begin() + count_col);
    }
    for (auto& [key, list] : per_key) {
      std::vector<Cell> row = key_cells[key];
      for (Cell& c : MergeDescribe(list)) row.push_back(std::move(c));
      out.rows.push_back(std::move(row));
    }
    size_t sum = out.columns.size() - 1;
    std::stable_sort(out.rows.begin(), out.rows.end(), [sum](const auto& a, const auto& b) {
      return CellInt(a[sum]) > CellInt(b[sum]);
    });
    return out;
  }

  void AddPage(const Frame& rank_stats, const Frame& all_stats, RecipeResult* result) const {
    std::string what = spec_.unit == "B" ? "bytes" : "time";
    result->blocks.emplace_back(
        "Per-rank statistics of " + spec_.title + " (" + spec_.unit +
        "), and all ranks merged as nsys's all_stats: Count and Sum add up, Mean is Sum / Count, "
        "Std is the mean of the ranks' Std, Q1/Q3 the min/max of theirs, Median the median of "
        "their medians.");
    html::BarChart top{"Top names by total " + what + " (all ranks)", spec_.unit, {}, {}};
    int64_t grand = 0;
    for (const auto& row : all_stats.rows) grand += CellInt(row.back());
    for (size_t i = 0; i < all_stats.rows.size() && i < 20; ++i) {
      top.labels.push_back(CellText(all_stats.rows[i][0]));
      top.values.push_back(CellDouble(all_stats.rows[i].back()));
    }
    std::map<int64_t, int64_t> per_rank;
    for (const auto& row : rank_stats.rows) per_rank[CellInt(row[0])] += CellInt(row.back());
    html::BarChart ranks{"Total " + what + " per rank", spec_.unit, {}, {}};
    for (const auto& [rank, total] : per_rank) {
      ranks.labels.push_back("rank " + std::to_string(rank));
      ranks.values.push_back(static_cast<double>(total));
    }
    if (!top.labels.empty()) result->blocks.emplace_back(std::move(top));
    if (per_rank.size() > 1) result->blocks.emplace_back(std::move(ranks));
    result->blocks.emplace_back(TableBlock("all_stats", all_stats));
    result->blocks.emplace_back(TableBlock("rank_stats", rank_stats));
    if (!all_stats.rows.empty() && grand > 0) {
      const auto& row = all_stats.rows.front();
      char pct[32];
      std::snprintf(pct, sizeof(pct), "%.1f%%", 100.0 * CellDouble(row.back()) / grand);
      result->summary.push_back("top: " + CellText(row[0]) + " (" + pct + " of the total, " +
                                CellText(row[1]) + " instances)");
    }
    if (per_rank.size() > 1) {
      auto mx = std::max_element(per_rank.begin(), per_rank.end(),
                                 [](auto& a, auto& b) { return a.second < b.second; });
      auto mn = std::min_element(per_rank.begin(), per_rank.end(),
                                 [](auto& a, auto& b) { return a.second < b.second; });
      std::string value = spec_.unit == "B" ? std::to_string(mx->second) + " B"
                                            : HumanNs(static_cast<double>(mx->second));
      std::string low = spec_.unit == "B" ? std::to_string(mn->second) + " B"
                                          : HumanNs(static_cast<double>(mn->second));
      result->summary.push_back("largest total: rank " + std::to_string(mx->first) + " (" + value +
                                "), smallest: rank " + std::to_string(mn->first) + " (" + low +
                                ")");
    }
  }

  SummarySpec spec_;
};

const DataNeed kKernels{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"};
const DataNeed kApi{{"CUPTI_ACTIVITY_KIND_RUNTIME"}, "CUDA API data"};
const DataNeed kMem{{"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"},
                    "GPU memory operation data"};
const DataNeed kNvtx{{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"};
const DataNeed kOsrt{{"OSRT_API"}, "OS runtime data"};
const DataNeed kMpi{
    {"MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS", "MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS"},
    "MPI data"};

}  // namespace

std::unique_ptr<Recipe> MakeSummaryRecipe(const std::string& name) {
  static const std::vector<SummarySpec> kSpecs = {
      {"cuda_api_sum", "CUDA API Summary",
       "CUDA runtime and driver API calls by name (the _vNNNN suffix dropped), per rank and all "
       "ranks.",
       kApi, "Name", false, KeyKind::kApiName, "ns"},
      {"cuda_gpu_kern_sum", "CUDA GPU Kernel Summary",
       "CUDA kernels by name (demangled; --base, --mangled), zero-duration kernels dropped; "
       "rank_stats_by_device per Device ID; --per-gpu/--per-stream split rank_stats.",
       kKernels, "Name", true, KeyKind::kStringId, "ns"},
      {"cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)",
       "Memory copies by kind and memsets: bytes moved, per rank and all ranks.", kMem, "Operation",
       true, KeyKind::kCopyKind, "B"},
      {"cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)",
       "Memory copies by kind and memsets: durations, per rank and all ranks.", kMem, "Operation",
       true, KeyKind::kCopyKind, "ns"},
      {"nccl_sum", "NCCL Summary",
       "NCCL's NVTX ranges (domain NCCL) by text, duration > 0, per rank and all ranks.", kNvtx,
       "Text", false, KeyKind::kText, "ns"},
      {"mpi_sum", "MPI Summary",
       "MPI calls (point-to-point, collectives, start/wait and other MPI events) by name, "
       "duration > 0, per rank and all ranks.",
       kMpi, "Text", false, KeyKind::kStringId, "ns"},
      {"nccl_gpu_proj_sum", "NCCL GPU Projection Summary",
       "NCCL's NVTX ranges (domain NCCL) projected onto the GPU (from the start of the first to "
       "the end of the last GPU operation launched inside the range; ranges without GPU work "
       "left out): projected durations > 0 by text, per rank and all ranks.",
       kNvtx, "Text", false, KeyKind::kText, "ns"},
      {"nvtx_sum", "NVTX Range Summary",
       "NVTX push/pop and start/end ranges by \"domain:text\", per rank and all ranks.", kNvtx,
       "Range", false, KeyKind::kText, "ns"},
      {"osrt_sum", "OS Runtime Summary",
       "OS runtime (libc, pthread) calls by name, per rank and all ranks.", kOsrt, "Name", false,
       KeyKind::kStringId, "ns"},
  };
  for (const auto& spec : kSpecs) {
    if (spec.name == name) return std::make_unique<SummaryRecipe>(spec);
  }
  return nullptr;
}

}  // namespace gsys::analysis::recipe
