// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/row_cursor.h"

#include <algorithm>
#include <deque>

namespace gsys::export_ {
namespace {

// The reorder window that sorts `stmt`'s rows (start, end; rowid order), or -1 when none up to
// RowCursor::kMaxWindow does or a key is not an integer.
Result<int64_t> ReorderWindow(report::Statement& stmt) {
  struct Record {
    int64_t index;
    RowKey key;
  };
  // Rows that raised the running maximum, within the last kMaxWindow rows (keys nondecreasing).
  std::deque<Record> records;
  bool pruned = false;
  RowKey pruned_max;
  int64_t window = 0;
  for (int64_t i = 0;; ++i) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return window;
    if (stmt.ColumnType(0) != SQLITE_INTEGER || stmt.ColumnType(1) != SQLITE_INTEGER) return -1;
    RowKey key{stmt.ColumnInt(0), stmt.ColumnInt(1)};
    while (!records.empty() && records.front().index < i - RowCursor::kMaxWindow) {
      pruned = true;
      pruned_max = records.front().key;
      records.pop_front();
    }
    if (pruned && key < pruned_max) return -1;  // the window would exceed kMaxWindow
    if (records.empty() || !(key < records.back().key)) {
      records.push_back(Record{i, key});
      continue;
    }
    // Every earlier row that sorts after this one comes at or after the first record above it.
    auto above = std::upper_bound(records.begin(), records.end(), key,
                                  [](const RowKey& k, const Record& r) { return k < r.key; });
    window = std::max(window, i - above->index);
  }
}

}  // namespace

void Row::Load(const report::Statement& stmt, int text_column) {
  sqlite3_stmt* raw = stmt.raw();
  columns_ = std::min(sqlite3_column_count(raw), kMaxColumns);
  nulls_ = 0;
  for (int c = 0; c < columns_; ++c) {
    // One column_value per column (each column_* call takes the connection's mutex); the value
    // is only read here, on this thread, before the next step.
    sqlite3_value* value = sqlite3_column_value(raw, c);
    if (sqlite3_value_type(value) == SQLITE_NULL) {
      nulls_ |= uint32_t{1} << c;
      ints_[c] = 0;
      continue;
    }
    ints_[c] = sqlite3_value_int64(value);
    if (c == text_column) {
      const unsigned char* text = sqlite3_value_text(value);
      if (text == nullptr) {
        text_.clear();
      } else {
        text_.assign(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_value_bytes(value)));
      }
    }
  }
}

Result<std::unique_ptr<RowCursor>> RowCursor::Open(report::Database& db, const std::string& table,
                                                   const std::string& columns,
                                                   const std::string& key,
                                                   const std::string& where, int text_column) {
  GSYS_ASSIGN_OR_RETURN(report::Statement keys,
                        db.Prepare("SELECT " + key + " FROM " + table + where + " ORDER BY rowid"));
  GSYS_ASSIGN_OR_RETURN(int64_t window, ReorderWindow(keys));
  std::string select = "SELECT " + columns + " FROM " + table + where;
  select += window >= 0 ? " ORDER BY rowid" : " ORDER BY start, end DESC";
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(select));
  return std::unique_ptr<RowCursor>(new RowCursor(std::move(stmt), table, text_column, window));
}

Result<std::unique_ptr<RowCursor>> RowCursor::FromSorted(report::Statement stmt, int text_column) {
  return std::unique_ptr<RowCursor>(new RowCursor(std::move(stmt), "", text_column, -1));
}

Status RowCursor::Advance() {
  if (window_ >= 0) return AdvanceWindowed();
  GSYS_ASSIGN_OR_RETURN(has_row_, stmt_.Step());
  if (!has_row_) return OkStatus();
  sorted_row_.Load(stmt_, text_column_);
  key_ = RowKey{sorted_row_.ColumnInt(0), sorted_row_.ColumnInt(1)};
  row_ = &sorted_row_;
  return OkStatus();
}

Status RowCursor::AdvanceWindowed() {
  if (has_row_) {
    free_.push_back(heap_.top().slot);
    heap_.pop();
  }
  while (!input_done_ && static_cast<int64_t>(heap_.size()) <= window_) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt_.Step());
    if (!row) {
      input_done_ = true;
      break;
    }
    uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<uint32_t>(pool_.size());
      pool_.emplace_back();
    }
    Row& r = pool_[slot];
    r.Load(stmt_, text_column_);
    heap_.push(Entry{RowKey{r.ColumnInt(0), r.ColumnInt(1)}, read_++, slot});
  }
  has_row_ = !heap_.empty();
  if (!has_row_) return OkStatus();
  const Entry& top = heap_.top();
  // Open measured the window on the same immutable rows, so this holds unless the file changed.
  if (started_ && top.key < key_) {
    return Error(StatusCode::kIoError,
                 "export: rows of " + table_ + " changed while reading the report");
  }
  started_ = true;
  key_ = top.key;
  row_ = &pool_[top.slot];
  return OkStatus();
}

}  // namespace gsys::export_
