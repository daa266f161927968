// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/recipe_util.h"

#include <cmath>
#include <cstdio>

#include "analysis/recipe/spill.h"
#include "common/strings.h"

namespace gsys::analysis::recipe {

Status ForEachRow(report::Database& db, std::string_view sql,
                  const std::function<Status(report::Statement&)>& row) {
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(sql));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return OkStatus();
    GSYS_RETURN_IF_ERROR(row(stmt));
  }
}

Result<std::map<int64_t, std::string>> LookupStrings(report::Database& db,
                                                     const std::vector<int64_t>& ids) {
  std::map<int64_t, std::string> names;
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt,
                        db.Prepare("SELECT value FROM StringIds WHERE id = ?"));
  for (int64_t id : ids) {
    if (names.count(id)) continue;
    GSYS_RETURN_IF_ERROR(stmt.Reset());
    GSYS_RETURN_IF_ERROR(stmt.BindInt(1, id));
    GSYS_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    names[id] = has_row ? std::string(stmt.ColumnText(0)) : "<" + std::to_string(id) + ">";
  }
  return names;
}

std::string KernelNameExpr(NameVariant variant, std::string_view alias) {
  std::string p = alias.empty() ? "" : std::string(alias) + ".";
  switch (variant) {
    case NameVariant::kBase:
      return p + "shortName";
    case NameVariant::kMangled:
      return "coalesce(" + p + "mangledName, " + p + "demangledName)";
    case NameVariant::kDemangled:
      break;
  }
  return p + "demangledName";
}

std::string ApiNameExpr(std::string_view raw) {
  std::string r(raw);
  return "CASE substr(" + r + ", -6, 2) WHEN '_v' THEN substr(" + r + ", 1, length(" + r +
         ") - 6) ELSE " + r + " END";
}

Frame WithRank(const Frame& frame, int rank) {
  Frame out;
  out.columns.push_back("Rank");
  out.columns.insert(out.columns.end(), frame.columns.begin(), frame.columns.end());
  out.rows.reserve(frame.rows.size());
  for (const auto& row : frame.rows) {
    std::vector<Cell> r;
    r.reserve(row.size() + 1);
    r.emplace_back(static_cast<int64_t>(rank));
    r.insert(r.end(), row.begin(), row.end());
    out.rows.push_back(std::move(r));
  }
  return out;
}

void AppendRows(Frame* into, const Frame& part) {
  if (into->columns.empty()) into->columns = part.columns;
  into->rows.insert(into->rows.end(), part.rows.begin(), part.rows.end());
}

double CellDouble(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return std::nan("");
}

int64_t CellInt(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return *i;
  if (const auto* d = std::get_if<double>(&cell)) return static_cast<int64_t>(std::llround(*d));
  return 0;
}

std::string CellString(const Cell& cell) { return CellText(cell); }

html::Table TableBlock(const std::string& title, const Frame& frame) {
  html::Table table;
  table.title = title;
  std::vector<bool> numeric(frame.columns.size(), false);
  for (const auto& row : frame.rows) {
    for (size_t c = 0; c < row.size() && c < numeric.size(); ++c) {
      if (std::holds_alternative<int64_t>(row[c]) || std::holds_alternative<double>(row[c])) {
        numeric[c] = true;
      }
    }
  }
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    table.columns.push_back({frame.columns[c], numeric[c] && frame.columns[c] != "Rank" &&
                                                   frame.columns[c] != "PID" &&
                                                   frame.columns[c] != "Device ID"});
  }
  for (const auto& row : frame.rows) {
    std::vector<std::string> cells;
    for (size_t c = 0; c < row.size(); ++c) {
      bool group = c < table.columns.size() && table.columns[c].numeric;
      std::string text = CellText(row[c]);
      cells.push_back(group ? GroupThousands(text) : text);
    }
    table.rows.push_back(std::move(cells));
  }
  return table;
}

OutputTable StackedTable(const std::string& table_name, const std::vector<RankResult>& ranks,
                         const std::string& name, const std::vector<std::string>& fallback) {
  OutputTable table;
  table.name = table_name;
  for (const RankResult& r : MappedRanks(ranks)) {
    if (table.frame.columns.empty()) {
      table.frame.columns.push_back("Rank");
      const auto& cols = r.bundle->at(name).columns;
      table.frame.columns.insert(table.frame.columns.end(), cols.begin(), cols.end());
    }
    const SpilledPart& part = r.parts->at(name);
    table.parts.push_back(part.path);
    table.part_rows += part.rows;
  }
  if (table.frame.columns.empty()) table.frame.columns = fallback;
  return table;
}

std::map<int64_t, int64_t> StackedRowsPerRank(const std::vector<RankResult>& ranks,
                                              const std::string& name) {
  std::map<int64_t, int64_t> n;
  for (const RankResult& r : MappedRanks(ranks)) {
    int64_t rows = r.parts->at(name).rows;
    if (rows > 0) n[r.info->rank] += rows;
  }
  return n;
}

Result<std::vector<html::Block>> PageTableBlocks(const std::string& title,
                                                 const OutputTable& table) {
  constexpr size_t kPageRows = html::kMaxTableRows;
  std::vector<html::Block> blocks;
  Frame shown;
  shown.columns = table.frame.columns;
  size_t total = table.frame.rows.size() + static_cast<size_t>(table.part_rows);
  for (size_t i = 0; i < table.frame.rows.size() && i < kPageRows; ++i) {
    shown.rows.push_back(table.frame.rows[i]);
  }
  if (shown.rows.size() < kPageRows && !table.parts.empty()) {
    GSYS_ASSIGN_OR_RETURN(
        Frame rest, ReadRows(table.frame.columns, table.parts, kPageRows - shown.rows.size()));
    for (auto& row : rest.rows) shown.rows.push_back(std::move(row));
  }
  if (total > shown.rows.size()) {
    blocks.emplace_back(title + ": showing the first " +
                        GroupThousands(std::to_string(shown.rows.size())) + " of " +
                        GroupThousands(std::to_string(total)) + " rows (all of them are in " +
                        table.name + ".csv).");
  }
  blocks.emplace_back(TableBlock(title, shown));
  return blocks;
}

std::vector<RankResult> MappedRanks(const std::vector<RankResult>& ranks) {
  std::vector<RankResult> out;
  for (const auto& r : ranks) {
    if (r.bundle) out.push_back(r);
  }
  return out;
}

std::string HumanNs(double ns) {
  char buf[64];
  double a = std::fabs(ns);
  if (a >= 1e9) {
    std::snprintf(buf, sizeof(buf), "%.3f s", ns / 1e9);
  } else if (a >= 1e6) {
    std::snprintf(buf, sizeof(buf), "%.3f ms", ns / 1e6);
  } else if (a >= 1e3) {
    std::snprintf(buf, sizeof(buf), "%.3f us", ns / 1e3);
  } else {
    std::snprintf(buf, sizeof(buf), "%.0f ns", ns);
  }
  return buf;
}

}  // namespace gsys::analysis::recipe
