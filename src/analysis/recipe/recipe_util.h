// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the recipes: streaming SQL rows, name lookups, the kernel-name column, rank
// columns and the page blocks made from frames.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/recipe/recipe.h"
#include "common/status.h"
#include "report/db/database.h"

namespace gsys::analysis::recipe {

// Runs `sql` on `db` and calls `row` once per result row, without collecting them.
Status ForEachRow(report::Database& db, std::string_view sql,
                  const std::function<Status(report::Statement&)>& row);

// The StringIds values of `ids` (ids without a row map to "<id>").
Result<std::map<int64_t, std::string>> LookupStrings(report::Database& db,
                                                     const std::vector<int64_t>& ids);

// The KERNEL column holding the name variant: demangledName, shortName or mangledName (falling
// back to demangledName where mangledName is NULL).
std::string KernelNameExpr(NameVariant variant, std::string_view alias = "");

// SQL for CUDA API names without CUPTI's "_vNNNN" suffix, given an expression for the raw name.
std::string ApiNameExpr(std::string_view raw);

// A copy of `frame` with a first column "Rank" (value `rank`) in every row.
Frame WithRank(const Frame& frame, int rank);
// Appends the rows of `part` (same columns) to `into`.
void AppendRows(Frame* into, const Frame& part);

// A sortable page table of `frame`; integer and double columns are numeric, doubles with one
// decimal; thousands separators on numbers.
html::Table TableBlock(const std::string& title, const Frame& frame);

// The rows of every mapped rank's spilled table `name` (Recipe::SpilledTables), with a first
// column "Rank", as an output table made of the ranks' parts (nothing is read). Columns: the
// ranks' own, or `fallback` when no rank was mapped.
OutputTable StackedTable(const std::string& table_name, const std::vector<RankResult>& ranks,
                         const std::string& name, const std::vector<std::string>& fallback);
// Rows per rank of a StackedTable's parts (ranks with no rows left out).
std::map<int64_t, int64_t> StackedRowsPerRank(const std::vector<RankResult>& ranks,
                                              const std::string& name);

// The page blocks of `table`: a sortable table of the rows a page shows (html::kMaxTableRows: the
// in-memory rows, then the parts'), preceded by a note giving the total when rows were left out
// (only those rows are read back from the parts).
Result<std::vector<html::Block>> PageTableBlocks(const std::string& title,
                                                 const OutputTable& table);

// Ranks that were mapped (not skipped), in order.
std::vector<RankResult> MappedRanks(const std::vector<RankResult>& ranks);

// Cell accessors that tolerate any numeric kind.
double CellDouble(const Cell& cell);
int64_t CellInt(const Cell& cell);
std::string CellString(const Cell& cell);

// "12.3 ms" style human duration for summaries.
std::string HumanNs(double ns);

}  // namespace gsys::analysis::recipe
