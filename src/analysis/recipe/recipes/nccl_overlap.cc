// SPDX-License-Identifier: Apache-2.0
// nccl_gpu_overlap_trace: for every NCCL kernel (base name starting with "nccl"), the part of its
// run time that compute kernels overlap and the part other NCCL kernels overlap (union lengths, so
// two overlapping compute kernels count once), per rank, PID and GPU; grouped per kernel name as
// sum(overlap) / sum(duration). Map streams kernels ordered by (PID, device, start) and holds one
// (PID, device) at a time: its merged compute intervals and its NCCL kernels; the rank's trace
// rows go to a part on disk (Recipe::SpilledTables), Reduce merges per-name sums.
#include <algorithm>
#include <map>
#include <set>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/recipes.h"
#include "common/saturating.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

struct Span {
  int64_t start, end;
};
struct CommKernel {
  int64_t start, end, name;
};
struct Sums {
  int64_t count = 0, dur = 0, comm = 0, comp = 0;
};

// Length of the union of `spans` (sorted by start) clipped to [lo, hi).
int64_t UnionWithin(const std::vector<Span>& spans, int64_t lo, int64_t hi) {
  int64_t total = 0, cur_s = 0, cur_e = INT64_MIN;
  for (const Span& s : spans) {
    int64_t a = std::max(s.start, lo), b = std::min(s.end, hi);
    if (b <= a) continue;
    if (a > cur_e) {
      if (cur_e > cur_s) total = SaturatingAdd(total, SaturatingSub(cur_e, cur_s));
      cur_s = a;
      cur_e = b;
    } else {
      cur_e = std::max(cur_e, b);
    }
  }
  if (cur_e > cur_s) total = SaturatingAdd(total, SaturatingSub(cur_e, cur_s));
  return total;
}

class OverlapRecipe : public Recipe {
 public:
  std::string name() const override { return "nccl_gpu_overlap_trace"; }
  std::string title() const override { return "NCCL GPU Overlap Trace"; }
  std::string help() const override {
    return "Per NCCL kernel: % of its duration overlapped by compute kernels and by other NCCL "
           "kernels on the same PID and GPU (rank_trace.csv, times aligned), and per kernel name "
           "over all ranks (grouped_trace.csv). Options: --base/--mangled, --filter-time, "
           "--filter-nvtx, --disable-alignment.";
  }
  std::vector<DataNeed> Needs(const RecipeOptions&) const override {
    return {{{"CUPTI_ACTIVITY_KIND_KERNEL"}, "CUDA kernel data"}};
  }
  std::vector<std::string> SpilledTables() const override { return {"rank_trace"}; }

  Result<Bundle> Map(MapContext& ctx) const override {
    std::string sql =
        "SELECT (k.globalPid >> 24) & 0xFFFFFF, k.deviceId, k.start, k.end, "
        "coalesce(s.value LIKE 'nccl%', 0), " +
        KernelNameExpr(ctx.options.name_variant, "k") +
        " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS s ON s.id = "
        "k.shortName WHERE k.end > k.start ORDER BY 1, 2, k.start";
    Frame f;
    f.columns = {"Name",
                 "Start",
                 "End",
                 "Duration",
                 "PID",
                 "Device ID",
                 "Communication Overlap",
                 "Compute Overlap",
                 "Communication Overlap (ns)",
                 "Compute Overlap (ns)"};
    std::vector<Span> compute;  // merged, in start order
    std::vector<CommKernel> comm;
    int64_t pid = -1, dev = -1, offset = ctx.info.offset;
    std::set<int64_t> name_ids;
    auto flush = [&] {
      int64_t longest = 0;
      // Saturating throughout: report times are untrusted (issue 17, item 7).
      for (const auto& k : comm) longest = std::max(longest, SaturatingSub(k.end, k.start));
      std::vector<Span> others;
      for (size_t i = 0; i < comm.size(); ++i) {
        const CommKernel& k = comm[i];
        // Merged compute spans that can touch [start, end): binary search the first ending after.
        auto it = std::lower_bound(compute.begin(), compute.end(), k.start,
                                   [](const Span& s, int64_t t) { return s.end <= t; });
        int64_t comp = 0;
        for (; it != compute.end() && it->start < k.end; ++it) {
          comp = SaturatingAdd(
              comp, SaturatingSub(std::min(it->end, k.end), std::max(it->start, k.start)));
        }
        others.clear();
        // Kernels starting before start - longest have ended by start.
        size_t j0 = static_cast<size_t>(
            std::lower_bound(comm.begin(), comm.end(), SaturatingSub(k.start, longest),
                             [](const CommKernel& c, int64_t t) { return c.start < t; }) -
            comm.begin());
        for (size_t j = j0; j < comm.size(); ++j) {
          if (j == i) continue;
          if (comm[j].start >= k.end) break;
          if (SaturatingAdd(comm[j].start, longest) <= k.start || comm[j].end <= k.start) {
            continue;
          }
          others.push_back({comm[j].start, comm[j].end});
        }
        int64_t other = UnionWithin(others, k.start, k.end);
        int64_t span = SaturatingSub(k.end, k.start);
        double dur = static_cast<double>(span);
        f.rows.push_back({k.name, SaturatingAdd(k.start, offset), SaturatingAdd(k.end, offset),
                          span, pid, dev, Round1(other * 100.0 / dur), Round1(comp * 100.0 / dur),
                          other, comp});
        name_ids.insert(k.name);
      }
      compute.clear();
      comm.clear();
    };
    GSYS_RETURN_IF_ERROR(ForEachRow(ctx.reader.db(), sql, [&](report::Statement& s) {
      int64_t p = s.ColumnInt(0), d = s.ColumnInt(1), start = s.ColumnInt(2), end = s.ColumnInt(3);
      if (p != pid || d != dev) {
        flush();
        pid = p;
        dev = d;
      }
      if (s.ColumnInt(4)) {
        comm.push_back({start, end, s.ColumnInt(5)});
      } else if (!compute.empty() && start <= compute.back().end) {
        compute.back().end = std::max(compute.back().end, end);
      } else {
        compute.push_back({start, end});
      }
      return OkStatus();
    }));
    flush();
    GSYS_ASSIGN_OR_RETURN(auto names,
                          LookupStrings(ctx.reader.db(), {name_ids.begin(), name_ids.end()}));
    for (auto& row : f.rows) row[0] = names[std::get<int64_t>(row[0])];
    // Per name sums for grouped_trace and the summary; the trace rows go to a part on disk.
    std::map<std::string, Sums> by_name;
    for (const auto& row : f.rows) {
      Sums& s = by_name[CellText(row[0])];
      s.count += 1;
      s.dur = SaturatingAdd(s.dur, CellInt(row[3]));
      s.comm = SaturatingAdd(s.comm, CellInt(row[8]));
      s.comp = SaturatingAdd(s.comp, CellInt(row[9]));
    }
    Frame sums;
    sums.columns = {"Name", "Count", "Duration", "Communication", "Compute"};
    for (const auto& [n, s] : by_name) sums.rows.push_back({n, s.count, s.dur, s.comm, s.comp});
    return Bundle{{"rank_trace", std::move(f)}, {"sums", std::move(sums)}};
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions&,
                              const GlobalParams&) const override {
    RecipeResult result;
    OutputTable trace = StackedTable(
        "rank_trace", ranks, "rank_trace",
        {"Rank", "Name", "Start", "End", "Duration", "PID", "Device ID", "Communication Overlap",
         "Compute Overlap", "Communication Overlap (ns)", "Compute Overlap (ns)"});
    std::map<std::string, Sums> by_name;
    std::map<int64_t, Sums> by_rank;
    for (const RankResult& r : MappedRanks(ranks)) {
      for (const auto& row : r.bundle->at("sums").rows) {
        for (Sums* s : {&by_name[CellText(row[0])], &by_rank[r.info->rank]}) {
          s->count = SaturatingAdd(s->count, CellInt(row[1]));
          s->dur = SaturatingAdd(s->dur, CellInt(row[2]));
          s->comm = SaturatingAdd(s->comm, CellInt(row[3]));
          s->comp = SaturatingAdd(s->comp, CellInt(row[4]));
        }
      }
    }
    auto pct = [](int64_t part, int64_t whole) {
      return whole ? Round1(static_cast<double>(part) * 100.0 / static_cast<double>(whole)) : 0.0;
    };
    Frame grouped;
    grouped.columns = {"Name", "Count", "Duration", "Communication Overlap", "Compute Overlap"};
    for (const auto& [name, s] : by_name) {
      grouped.rows.push_back({name, s.count, s.dur, pct(s.comm, s.dur), pct(s.comp, s.dur)});
    }
    std::stable_sort(grouped.rows.begin(), grouped.rows.end(),
                     [](const auto& a, const auto& b) { return CellInt(a[2]) > CellInt(b[2]); });
    result.tables.push_back({"grouped_trace", grouped});
    result.blocks.emplace_back(
        "How much of each NCCL kernel's run time other kernels on the same GPU overlap: "
        "Compute Overlap (communication hidden behind compute: high is good) and Communication "
        "Overlap (other NCCL kernels running at the same time), in % of the kernel's duration.");
    html::BarChart per_rank{"Compute overlap of NCCL kernels per rank", "%", {}, {}};
    for (const auto& [rank, s] : by_rank) {
      per_rank.labels.push_back("rank " + std::to_string(rank));
      per_rank.values.push_back(pct(s.comp, s.dur));
    }
    html::BarChart per_name{"Compute overlap per NCCL kernel name", "%", {}, {}};
    for (size_t i = 0; i < grouped.rows.size() && i < 20; ++i) {
      per_name.labels.push_back(CellText(grouped.rows[i][0]));
      per_name.values.push_back(CellDouble(grouped.rows[i][4]));
    }
    if (!per_rank.labels.empty()) result.blocks.emplace_back(std::move(per_rank));
    if (!per_name.labels.empty()) result.blocks.emplace_back(std::move(per_name));
    result.blocks.emplace_back(TableBlock("grouped_trace", grouped));
    GSYS_ASSIGN_OR_RETURN(auto trace_blocks, PageTableBlocks("rank_trace", trace));
    for (auto& block : trace_blocks) result.blocks.push_back(std::move(block));
    result.tables.push_back(std::move(trace));
    Sums total;
    for (const auto& [rank, s] : by_rank) {
      total.count = SaturatingAdd(total.count, s.count);
      total.dur = SaturatingAdd(total.dur, s.dur);
      total.comm = SaturatingAdd(total.comm, s.comm);
      total.comp = SaturatingAdd(total.comp, s.comp);
    }
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "%lld NCCL kernels: %.1f%% of their time overlapped by compute, %.1f%% by "
                  "other communication",
                  static_cast<long long>(total.count), pct(total.comp, total.dur),
                  pct(total.comm, total.dur));
    result.summary.push_back(buf);
    if (by_rank.size() > 1) {
      auto lo = std::min_element(by_rank.begin(), by_rank.end(), [&](auto& a, auto& b) {
        return pct(a.second.comp, a.second.dur) < pct(b.second.comp, b.second.dur);
      });
      std::snprintf(buf, sizeof(buf), "least overlapped: rank %lld (%.1f%% by compute)",
                    static_cast<long long>(lo->first), pct(lo->second.comp, lo->second.dur));
      result.summary.push_back(buf);
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Recipe> MakeNcclOverlapRecipe() { return std::make_unique<OverlapRecipe>(); }

}  // namespace gsys::analysis::recipe
