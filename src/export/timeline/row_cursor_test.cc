// SPDX-License-Identifier: Apache-2.0
// RowCursor yields every row in (start, end DESC) order, equal keys in rowid order, whether it
// streams through a reorder window or falls back to SQL ORDER BY.
#include "export/timeline/row_cursor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace gsys::export_ {
namespace {

struct Input {
  std::optional<int64_t> start;
  int64_t end;
};

report::Database Table(const std::vector<Input>& rows) {
  report::Database db = std::move(report::Database::OpenInMemory()).value();
  EXPECT_TRUE(db.Exec("CREATE TABLE T (start INTEGER, end INTEGER, note TEXT)").ok());
  report::Statement insert = std::move(db.Prepare("INSERT INTO T VALUES (?, ?, ?)")).value();
  EXPECT_TRUE(db.Exec("BEGIN").ok());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].start) {
      EXPECT_TRUE(insert.BindInt(1, *rows[i].start).ok());
    } else {
      EXPECT_TRUE(insert.BindNull(1).ok());
    }
    EXPECT_TRUE(insert.BindInt(2, rows[i].end).ok());
    EXPECT_TRUE(insert.BindText(3, "row " + std::to_string(i + 1)).ok());
    EXPECT_TRUE(insert.Step().ok());
    EXPECT_TRUE(insert.Reset().ok());
  }
  EXPECT_TRUE(db.Exec("COMMIT").ok());
  return db;
}

// (start, end, note) in the order SQL gives with rowid as the last key.
std::vector<std::tuple<int64_t, int64_t, std::string>> Expected(report::Database& db) {
  report::Statement s = std::move(db.Prepare("SELECT start, end, note FROM T "
                                             "ORDER BY start, end DESC, rowid"))
                            .value();
  std::vector<std::tuple<int64_t, int64_t, std::string>> out;
  while (true) {
    Result<bool> row = s.Step();
    if (!row.ok() || !*row) break;
    out.emplace_back(s.ColumnInt(0), s.ColumnInt(1), std::string(s.ColumnText(2)));
  }
  return out;
}

// Returns the cursor's window; checks its rows against Expected.
int64_t CheckOrder(const std::vector<Input>& rows) {
  report::Database db = Table(rows);
  auto cursor =
      std::move(RowCursor::Open(db, "T", "start, end, note", "start, end", "", 2)).value();
  std::vector<std::tuple<int64_t, int64_t, std::string>> got;
  while (true) {
    EXPECT_TRUE(cursor->Advance().ok());
    if (!cursor->has_row()) break;
    const Row& r = cursor->row();
    EXPECT_EQ(r.ColumnInt(0), cursor->start());
    got.emplace_back(r.ColumnInt(0), r.ColumnInt(1), std::string(r.ColumnText(2)));
  }
  std::vector<std::tuple<int64_t, int64_t, std::string>> want = Expected(db);
  if (cursor->window() < 0) {  // SQL's order of equal keys is its own: compare keys only
    EXPECT_EQ(got.size(), want.size());
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
      EXPECT_EQ(std::get<0>(got[i]), std::get<0>(want[i])) << i;
      EXPECT_EQ(std::get<1>(got[i]), std::get<1>(want[i])) << i;
    }
  } else {
    EXPECT_EQ(got, want);
  }
  return cursor->window();
}

TEST(RowCursor, SortedTableNeedsNoWindow) {
  std::vector<Input> rows;
  for (int64_t i = 0; i < 1000; ++i) rows.push_back({i * 10, i * 10 + 5});
  EXPECT_EQ(CheckOrder(rows), 0);
}

TEST(RowCursor, NearlySortedRowsStreamThroughAWindow) {
  std::mt19937_64 rng(7);
  std::vector<Input> rows;
  for (int64_t i = 0; i < 20000; ++i) {
    int64_t start = i * 3 + static_cast<int64_t>(rng() % 300);  // local disorder, some ties
    rows.push_back({start, start + static_cast<int64_t>(rng() % 4)});
  }
  // A nesting: the enclosing slice written after what it encloses (NVTX pops).
  rows.push_back({5, 100000});
  int64_t window = CheckOrder(rows);
  EXPECT_GT(window, 0);
  EXPECT_LE(window, RowCursor::kMaxWindow);
}

TEST(RowCursor, EqualStartsPutTheLongerFirst) {
  EXPECT_GE(CheckOrder({{10, 11}, {10, 20}, {10, 15}, {10, 20}, {9, 9}}), 0);
}

TEST(RowCursor, FarDisorderFallsBackToSql) {
  std::vector<Input> rows;
  for (int64_t i = RowCursor::kMaxWindow + 100; i > 0; --i) rows.push_back({i, i});
  EXPECT_EQ(CheckOrder(rows), -1);
}

TEST(RowCursor, NullStartFallsBackToSql) {
  EXPECT_EQ(CheckOrder({{3, 4}, {std::nullopt, 1}, {1, 2}}), -1);
}

TEST(RowCursor, EmptyTable) { EXPECT_EQ(CheckOrder({}), 0); }

}  // namespace
}  // namespace gsys::export_
