// SPDX-License-Identifier: Apache-2.0
// diff (beyond nsys's): two sets of reports (or two recipe outputs) compared by name: kernels,
// CUDA API calls and NVTX ranges that were added, removed, got slower or faster. Totals are per
// rank (a set's total divided by its number of ranks), so sets of different sizes compare; a
// change within --tolerance % is "same". Rows are sorted by |delta| (impact), then kind and name.
#include <cmath>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "analysis/recipe/recipe_util.h"
#include "analysis/recipe/recipes/recipes.h"
#include "common/regular_file.h"
#include "common/seeded_hash.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

struct Totals {
  int64_t count = 0, total = 0;
};

// name -> totals, aggregated in a hash map while SQLite streams (key, duration) rows.
Result<Frame> Aggregate(report::Database& db, const std::string& sql, bool id_key, bool api_names) {
  std::unordered_map<int64_t, Totals, SeededHash> by_id;
  std::map<std::string, Totals> by_text;
  GSYS_RETURN_IF_ERROR(ForEachRow(db, sql, [&](report::Statement& s) {
    Totals& t = id_key ? by_id[s.ColumnInt(0)] : by_text[std::string(s.ColumnText(0))];
    t.count += 1;
    t.total += s.ColumnInt(1);
    return OkStatus();
  }));
  if (id_key) {
    std::vector<int64_t> ids;
    for (const auto& [id, t] : by_id) ids.push_back(id);
    GSYS_ASSIGN_OR_RETURN(auto names, LookupStrings(db, ids));
    for (const auto& [id, t] : by_id) {
      std::string name = names[id];
      if (api_names && name.size() > 6 && name.compare(name.size() - 6, 2, "_v") == 0) {
        name.resize(name.size() - 6);
      }
      Totals& into = by_text[name];
      into.count += t.count;
      into.total += t.total;
    }
  }
  Frame f;
  f.columns = {"Name", "Count", "Total"};
  for (const auto& [name, t] : by_text) f.rows.push_back({name, t.count, t.total});
  return f;
}

const char* kKinds[] = {"Kernel", "API", "NVTX"};

class DiffRecipe : public Recipe {
 public:
  std::string name() const override { return "diff"; }
  std::string title() const override { return "Run-to-Run Diff"; }
  std::string help() const override {
    return "Compares two inputs (--input A --input B, or -- A B): each a report, a directory "
           "of reports (one set of ranks) or a recipe output directory (its all_stats.csv). "
           "Kernels (--base/--mangled), CUDA API calls and NVTX ranges by name: per-rank count "
           "and total time in each, status added/removed/slower/faster/same (--tolerance PCT, "
           "default 0), sorted by impact (diff.csv).";
  }

  Result<Bundle> Map(MapContext& ctx) const override {
    report::Database& db = ctx.reader.db();
    Bundle b;
    GSYS_ASSIGN_OR_RETURN(b["Kernel"],
                          Aggregate(db,
                                    "SELECT " + KernelNameExpr(ctx.options.name_variant) +
                                        ", end - start FROM CUPTI_ACTIVITY_KIND_KERNEL",
                                    true, false));
    GSYS_ASSIGN_OR_RETURN(
        b["API"],
        Aggregate(db, "SELECT nameId, end - start FROM CUPTI_ACTIVITY_KIND_RUNTIME", true, true));
    GSYS_ASSIGN_OR_RETURN(
        b["NVTX"],
        Aggregate(db,
                  "SELECT coalesce(n.text, s.value, ''), n.end - n.start FROM NVTX_EVENTS AS n "
                  "LEFT JOIN StringIds AS s ON s.id = n.textId WHERE n.eventType IN (59, 60, "
                  "70, 71) AND n.end IS NOT NULL",
                  false, false));
    return b;
  }

  Result<RecipeResult> Reduce(const std::vector<RankResult>& ranks, const RecipeOptions& options,
                              const GlobalParams&) const override {
    // (kind, name) -> totals per set; ranks per set.
    std::map<std::pair<std::string, std::string>, Totals> sums[2];
    int nranks[2] = {0, 0};
    for (const RankResult& r : MappedRanks(ranks)) {
      int set = r.info->set ? 1 : 0;
      ++nranks[set];
      for (const char* kind : kKinds) {
        auto it = r.bundle->find(kind);
        if (it == r.bundle->end()) continue;
        for (const auto& row : it->second.rows) {
          Totals& t = sums[set][{kind, CellText(row[0])}];
          t.count += CellInt(row[1]);
          t.total += CellInt(row[2]);
        }
      }
    }
    return DiffResult(sums, nranks, options.tolerance);
  }

  // Shared with DiffRecipeOutputs.
  static RecipeResult DiffResult(
      const std::map<std::pair<std::string, std::string>, Totals> sums[2], const int nranks[2],
      double tolerance) {
    std::map<std::pair<std::string, std::string>, bool> keys;
    for (int s = 0; s < 2; ++s) {
      for (const auto& [key, t] : sums[s]) keys[key] = true;
    }
    Frame f;
    f.columns = {"Kind",    "Name",    "Status", "Count A",  "Count B",
                 "Total A", "Total B", "Delta",  "Delta (%)"};
    std::map<std::string, int> tally;
    for (const auto& [key, unused] : keys) {
      double per[2][2] = {{0, 0}, {0, 0}};  // [set][count, total] per rank
      for (int s = 0; s < 2; ++s) {
        auto it = sums[s].find(key);
        if (it == sums[s].end() || nranks[s] == 0) continue;
        per[s][0] = static_cast<double>(it->second.count) / nranks[s];
        per[s][1] = static_cast<double>(it->second.total) / nranks[s];
      }
      double a = per[0][1], b = per[1][1];
      std::string status;
      Cell pct = std::monostate{};
      if (per[0][0] == 0) {
        status = "added";
      } else if (per[1][0] == 0) {
        status = "removed";
      } else {
        double change = a > 0 ? (b - a) * 100.0 / a : 0.0;
        pct = Round1(change);
        status = std::fabs(change) <= tolerance ? "same" : change > 0 ? "slower" : "faster";
      }
      ++tally[status];
      f.rows.push_back({key.first, key.second, status, Round1(per[0][0]), Round1(per[1][0]),
                        Round1(a), Round1(b), Round1(b - a), pct});
    }
    std::stable_sort(f.rows.begin(), f.rows.end(), [](const auto& x, const auto& y) {
      return std::fabs(CellDouble(x[7])) > std::fabs(CellDouble(y[7]));
    });
    RecipeResult result;
    result.tables.push_back({"diff", f});
    char buf[160];
    std::snprintf(buf, sizeof(buf),
                  "Per-rank totals of set A (%d rank(s)) and set B (%d rank(s)); changes within "
                  "%.1f%% count as the same.",
                  nranks[0], nranks[1], tolerance);
    result.blocks.emplace_back(std::string(buf));
    html::BarChart bars{"Largest changes (B - A per rank)", "ms", {}, {}};
    for (size_t i = 0; i < f.rows.size() && i < 20; ++i) {
      if (CellDouble(f.rows[i][7]) == 0) break;
      bars.labels.push_back(CellText(f.rows[i][0]) + " " + CellText(f.rows[i][1]));
      bars.values.push_back(CellDouble(f.rows[i][7]) / 1e6);
    }
    if (!bars.labels.empty()) result.blocks.emplace_back(std::move(bars));
    result.blocks.emplace_back(TableBlock("diff", f));
    std::string line;
    for (const char* s : {"slower", "faster", "added", "removed", "same"}) {
      line += (line.empty() ? "" : ", ") + std::to_string(tally[s]) + " " + s;
    }
    result.summary.push_back(line);
    if (!f.rows.empty() && CellDouble(f.rows[0][7]) != 0) {
      const auto& r = f.rows[0];
      result.summary.push_back("largest change: " + CellText(r[0]) + " " + CellText(r[1]) + " " +
                               CellText(r[2]) + " by " + HumanNs(CellDouble(r[7])) + " per rank");
    }
    return result;
  }
};

// A recipe output directory may come from anyone: a FIFO or a link to /dev/zero at one of its
// names hung diff (an endless read), so only a regular file is read, and at most 1 GiB of it.
Result<std::string> ReadText(const std::filesystem::path& path) {
  constexpr size_t kMaxBytes = size_t{1} << 30;
  bool cut = false;
  auto text = ReadRegularFile(path.string(), kMaxBytes, true, &cut);
  if (!text.ok()) return Error(StatusCode::kBadInput, "recipe: diff: " + text.status().message());
  if (cut) {
    return Error(StatusCode::kBadInput, "recipe: diff: '" + path.string() + "' is over 1 GiB");
  }
  return text;
}

}  // namespace

std::unique_ptr<Recipe> MakeDiffRecipe() { return std::make_unique<DiffRecipe>(); }

bool IsRecipeOutputDir(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) &&
         std::filesystem::exists(std::filesystem::path(path) / "files.csv", ec);
}

Result<RecipeResult> DiffRecipeOutputs(const std::string& a, const std::string& b, double tolerance,
                                       std::vector<RankInfo>* ranks) {
  std::map<std::pair<std::string, std::string>, Totals> sums[2];
  int nranks[2] = {0, 0};
  const std::string dirs[2] = {a, b};
  for (int s = 0; s < 2; ++s) {
    std::filesystem::path dir(dirs[s]);
    GSYS_ASSIGN_OR_RETURN(std::string files_text, ReadText(dir / "files.csv"));
    GSYS_ASSIGN_OR_RETURN(Frame files, ParseCsv(files_text, CsvText::kNeutralised));
    int status_col = files.Column("Status");
    for (const auto& row : files.rows) {
      bool ok = status_col < 0 || CellText(row[static_cast<size_t>(status_col)]) == "ok";
      nranks[s] += ok ? 1 : 0;
      RankInfo info;
      info.set = s;
      info.rank = static_cast<int>(CellInt(row[0]));
      info.file =
          files.Column("File") >= 0 ? CellText(row[static_cast<size_t>(files.Column("File"))]) : "";
      info.path = dirs[s];
      info.skipped = !ok;
      ranks->push_back(info);
    }
    if (!std::filesystem::exists(dir / "all_stats.csv")) {
      return Error(StatusCode::kBadInput, "recipe: diff: '" + dirs[s] +
                                              "' has no all_stats.csv (diff reads the output of "
                                              "a summary recipe such as cuda_gpu_kern_sum)");
    }
    GSYS_ASSIGN_OR_RETURN(std::string stats_text, ReadText(dir / "all_stats.csv"));
    GSYS_ASSIGN_OR_RETURN(Frame stats, ParseCsv(stats_text, CsvText::kNeutralised));
    int count = stats.Column("Count"), sum = stats.Column("Sum");
    if (count < 1 || sum < 0) {
      return Error(StatusCode::kBadInput,
                   "recipe: diff: '" + dirs[s] + "/all_stats.csv' has no Count and Sum columns");
    }
    std::string kind = stats.columns[0];
    for (const auto& row : stats.rows) {
      std::string key;
      for (int c = 0; c < count; ++c) key += (c ? " " : "") + CellText(row[static_cast<size_t>(c)]);
      Totals& t = sums[s][{kind, key}];
      t.count += CellInt(row[static_cast<size_t>(count)]);
      t.total += CellInt(row[static_cast<size_t>(sum)]);
    }
  }
  return DiffRecipe::DiffResult(sums, nranks, tolerance);
}

}  // namespace gsys::analysis::recipe
