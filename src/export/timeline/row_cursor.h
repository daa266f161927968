// SPDX-License-Identifier: Apache-2.0
// RowCursor: the rows of one timeline table in (start, end DESC) order, without sorting the
// table when its rows are already nearly in that order (as captures and imports write them).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::export_ {

// One row's columns copied out of SQLite: integers (NULLs flagged, read as 0, as SQLite does)
// and the text of at most one column.
class Row {
 public:
  static constexpr int kMaxColumns = 24;

  // Copies the current row of `stmt`; `text_column` (or -1) is the column read as text.
  void Load(const report::Statement& stmt, int text_column);
  int ColumnCount() const { return columns_; }
  bool IsNull(int col) const { return ((nulls_ >> col) & 1) != 0; }
  int64_t ColumnInt(int col) const { return ints_[col]; }
  // Only for the text column given to Load.
  std::string_view ColumnText(int /*col*/) const { return text_; }

 private:
  int columns_ = 0;
  uint32_t nulls_ = 0;
  std::array<int64_t, kMaxColumns> ints_{};
  std::string text_;
};

// The order: start ascending, then end descending (the enclosing slice first).
struct RowKey {
  int64_t start = 0;
  int64_t end = 0;
  bool operator<(const RowKey& o) const { return start != o.start ? start < o.start : end > o.end; }
};

// How: Open first reads only the first two columns of the table in rowid order and bounds how
// far back any row lands in the order (the number of earlier rows that sort after it, from
// the running maximum). When that bound W is at most kMaxWindow, rows stream in rowid order
// through a sorted window of W + 1 rows, whose first is the next in order (equal keys in rowid
// order): two
// scans instead of SQLite's sort of every column, which spills to temp files (bench/RESULTS.md,
// "Export"). Otherwise, or when a key is NULL or not an integer (SQLite orders those apart),
// the table is read with ORDER BY. Memory: at most kMaxWindow rows and keys per cursor.
// Threading: one thread; borrows `db`.
class RowCursor {
 public:
  static constexpr int64_t kMaxWindow = int64_t{1} << 16;

  // `columns`: the select list, its first two columns the start and end; `key`: the same two
  // expressions alone; `where`: "" or " WHERE ...". Fails when the query cannot be prepared.
  static Result<std::unique_ptr<RowCursor>> Open(report::Database& db, const std::string& table,
                                                 const std::string& columns, const std::string& key,
                                                 const std::string& where, int text_column);
  // Rows of `stmt` (already ordered by start, end DESC), e.g. a query over a view.
  static Result<std::unique_ptr<RowCursor>> FromSorted(report::Statement stmt, int text_column);

  // Moves to the next row (the first one on the first call); has_row() is false after the last.
  Status Advance();
  bool has_row() const { return has_row_; }
  int64_t start() const { return key_.start; }
  int64_t end() const { return key_.end; }
  const Row& row() const { return *row_; }
  // The reorder window in use, or -1 when the rows come sorted from SQL (tests).
  int64_t window() const { return window_; }

 private:
  struct Entry {
    RowKey key;
    uint32_t slot;
  };
  RowCursor(report::Statement stmt, std::string table, int text_column, int64_t window)
      : stmt_(std::move(stmt)),
        table_(std::move(table)),
        text_column_(text_column),
        window_(window) {}
  Status AdvanceWindowed();

  report::Statement stmt_;
  std::string table_;
  int text_column_;
  int64_t window_;
  bool has_row_ = false;
  bool input_done_ = false;
  bool started_ = false;
  RowKey key_;
  const Row* row_ = nullptr;
  Row sorted_row_;  // sorted mode: the current row
  // Windowed mode: the waiting rows in order (equal keys in rowid order); they live in pool_
  // slots, free_ lists the unused ones. Most rows arrive in order or nearly: inserting from the
  // back costs their distance, less than a heap's log W.
  std::deque<Entry> waiting_;
  std::vector<Row> pool_;
  std::vector<uint32_t> free_;
};

}  // namespace gsys::export_
