// SPDX-License-Identifier: Apache-2.0
// ReportWriter: the write side of one import. Creates the report through CreateReportSchema
// (the one DDL, report/reader/schema.h), interns strings into StringIds, and inserts event rows
// with prepared statements inside a single transaction (bulk-load pragmas: the file is a temp
// file renamed into place only after a successful commit, so a crash never leaves half a report).
//
// Bulk rows: SQLite's per-row cost is dominated by the VDBE (record building, B-tree append)
// and by sqlite3_bind_* (~80 instructions per integer, ~170 per text). Plain NVTX rows are
// therefore queued and written by `INSERT INTO NVTX_EVENTS ... SELECT ... FROM
// gsys_import_nvtx`, an eponymous virtual table (registered on this connection only, never
// stored in the report) that yields a run of the queue: no binding, no per-row VALUES
// coroutine. There is one statement per row *shape* (event type, domain, which of
// end/text/textId are present); what is constant within a shape is a SQL literal, so a push/pop
// row reads 4 values. The queue is flushed at the same points as a single mixed batch (every
// 64 queued rows, and at Commit), one statement run per run of equal shapes, so rowids are the
// same as when every queued row went through one multi-row INSERT.
//
// Threading: one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report {

// One NVTX_EVENTS row. `text` with data()==nullptr is NULL.
struct NvtxRow {
  int64_t start = 0;
  std::optional<int64_t> end;
  int event_type = 0;
  std::optional<int64_t> range_id;
  std::optional<int64_t> category;
  std::optional<int64_t> color;
  std::string_view text;
  int64_t global_tid = 0;
  std::optional<int64_t> end_global_tid;
  std::optional<int64_t> text_id;
  int64_t domain_id = 0;
  uint8_t payload_type = 0;  // NVTX_PAYLOAD_TYPE_*; 0 = none
  uint64_t payload = 0;      // raw bits
};

// One queued plain NVTX row: the values that vary within its shape (see ReportWriter).
struct QueuedNvtxRow {
  int64_t start;
  int64_t end;
  int64_t global_tid;
  int64_t text_id;
  std::string_view text;
  uint32_t shape;  // index of its NvtxShape in the writer
};

// The rows [begin, end) of the queue that the import's row-source virtual table yields.
struct NvtxQueueView {
  const QueuedNvtxRow* rows = nullptr;
  size_t begin = 0, end = 0;
};

class ReportWriter {
 public:
  // Creates `path` (must not exist) with the canonical schema and opens the load transaction.
  static Result<std::unique_ptr<ReportWriter>> Create(const std::string& path);
  ~ReportWriter();

  // StringIds id of `text`, inserting it when new.
  Result<int64_t> Intern(std::string_view text);
  // Rows without range id, category, color, end thread or payload (the bulk of push/pop
  // ranges) are queued and inserted 64 at a time; `row.text` must stay valid until Commit.
  Status InsertNvtx(const NvtxRow& row);
  Status InsertOsrt(int64_t start, int64_t end, int64_t global_tid, int64_t name_id,
                    int64_t return_value);
  // Writes the queued rows (so SQL sees every row inserted so far).
  Status FlushPending();
  // Commits the transaction.
  Status Commit();

  Database& db() { return db_; }

 private:
  explicit ReportWriter(Database db) : db_(std::move(db)) {}
  Status Prepare();

  // Transparent hashing: look up a string_view without building a std::string.
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // What is constant across the rows of one specialised NVTX statement.
  struct NvtxShape {
    int64_t event_type = 0;
    int64_t domain_id = 0;
    bool has_end = false;
    bool has_text = false;     // text bound (else NULL)
    bool has_text_id = false;  // textId bound (else NULL)
    bool operator==(const NvtxShape&) const = default;
  };
  struct ShapeStatements {
    NvtxShape shape;
    std::optional<Statement> insert;  // INSERT ... SELECT from the queue view
  };
  struct QueuedOsrt {
    int64_t start, end, global_tid, name_id, return_value;
  };

  // Inserts `r` at once through the general 17-column statement.
  Status InsertNvtxRow(const NvtxRow& r);
  Status FlushNvtxBatch();
  // Index of `shape` in nvtx_shapes_ (prepared on first use); kNoShape past kMaxShapes.
  Result<uint32_t> ShapeIndex(const NvtxShape& shape);
  Result<Statement> PrepareShape(const NvtxShape& shape);
  Status FlushOsrtBatch();

  Database db_;
  std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>> strings_;
  int64_t next_string_id_ = 0;
  std::optional<Statement> string_insert_;

  static constexpr int kBatchRows = 64;
  static constexpr size_t kMaxShapes = 64;
  static constexpr uint32_t kNoShape = UINT32_MAX;
  std::optional<Statement> nvtx_insert_;
  std::vector<ShapeStatements> nvtx_shapes_;
  uint32_t last_shape_ = 0;
  std::vector<QueuedNvtxRow> nvtx_batch_;
  NvtxQueueView nvtx_view_;  // read by the virtual table during a flush
  std::optional<Statement> osrt_insert_;
  std::optional<Statement> osrt_batch_insert_;
  std::vector<QueuedOsrt> osrt_batch_;
};

// One GSYS_META row (name -> value), replacing an earlier value of `name`.
Status InsertMeta(Database& db, const std::string& name, const std::string& value);

}  // namespace gsys::report
