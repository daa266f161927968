// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/row_cursor.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace gsys::export_ {
namespace {

// The reorder window that sorts `stmt`'s rows (start, end; rowid order), or -1 when none up to
// RowCursor::kMaxWindow does or a key is not an integer.
Result<int64_t> ReorderWindow(report::Statement& stmt) {
  struct Record {
    int64_t index;
    RowKey key;
  };
  // Rows that raised the running maximum (keys nondecreasing); those before `head` are older
  // than kMaxWindow rows.
  std::vector<Record> records;
  size_t head = 0;
  int64_t window = 0;
  sqlite3_stmt* raw = stmt.raw();
  for (int64_t i = 0;; ++i) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return window;
    sqlite3_value* start = sqlite3_column_value(raw, 0);
    sqlite3_value* end = sqlite3_column_value(raw, 1);
    if (sqlite3_value_type(start) != SQLITE_INTEGER || sqlite3_value_type(end) != SQLITE_INTEGER) {
      return -1;
    }
    RowKey key{sqlite3_value_int64(start), sqlite3_value_int64(end)};
    while (head < records.size() && records[head].index < i - RowCursor::kMaxWindow) ++head;
    // An earlier row older than the window sorts after this one: the window would not do.
    if (head > 0 && key < records[head - 1].key) return -1;
    if (head == records.size() || !(key < records.back().key)) {
      if (head > static_cast<size_t>(RowCursor::kMaxWindow)) {
        // Keep the last pruned record: it is the largest key older than the window.
        records.erase(records.begin(), records.begin() + static_cast<ptrdiff_t>(head - 1));
        head = 1;
      }
      records.push_back(Record{i, key});
      continue;
    }
    // Every earlier row that sorts after this one comes at or after the first record above it.
    auto above = std::upper_bound(records.begin() + static_cast<ptrdiff_t>(head), records.end(),
                                  key, [](const RowKey& k, const Record& r) { return k < r.key; });
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
                                                   const std::string& key, const std::string& where,
                                                   int text_column) {
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
    free_.push_back(waiting_.front().slot);
    waiting_.pop_front();
  }
  while (!input_done_ && static_cast<int64_t>(waiting_.size()) <= window_) {
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
    Entry entry{RowKey{r.ColumnInt(0), r.ColumnInt(1)}, slot};
    auto at = waiting_.end();
    while (at != waiting_.begin() && entry.key < std::prev(at)->key) --at;
    waiting_.insert(at, entry);
  }
  has_row_ = !waiting_.empty();
  if (!has_row_) return OkStatus();
  const Entry& first = waiting_.front();
  // Open measured the window on the same immutable rows, so this holds unless the file changed.
  if (started_ && first.key < key_) {
    return Error(StatusCode::kIoError,
                 "export: rows of " + table_ + " changed while reading the report");
  }
  started_ = true;
  key_ = first.key;
  row_ = &pool_[first.slot];
  return OkStatus();
}

}  // namespace gsys::export_
