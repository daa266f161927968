// SPDX-License-Identifier: Apache-2.0
// ReportWriter: the write side of one import. Creates the report through CreateReportSchema
// (the one DDL, report/reader/schema.h), interns strings into StringIds, and inserts event rows
// with prepared statements inside a single transaction (bulk-load pragmas: the file is a temp
// file renamed into place only after a successful commit, so a crash never leaves half a report).
//
// Threading: one thread.
#pragma once

#include <cstdint>
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

class ReportWriter {
 public:
  // Creates `path` (must not exist) with the canonical schema and opens the load transaction.
  static Result<std::unique_ptr<ReportWriter>> Create(const std::string& path);
  ~ReportWriter();

  // StringIds id of `text`, inserting it when new.
  Result<int64_t> Intern(std::string_view text);
  // Rows without range id, category, color, end thread or payload (the bulk of push/pop
  // ranges) are batched into multi-row INSERTs; `row.text` must stay valid until Commit.
  Status InsertNvtx(const NvtxRow& row);
  Status InsertOsrt(int64_t start, int64_t end, int64_t global_tid, int64_t name_id,
                    int64_t return_value);
  // Commits the transaction.
  Status Commit();

  Database& db() { return db_; }

 private:
  explicit ReportWriter(Database db) : db_(std::move(db)) {}
  Status Prepare();

  Database db_;
  std::unordered_map<std::string, int64_t> strings_;
  int64_t next_string_id_ = 0;
  std::optional<Statement> string_insert_;
  Status FlushNvtxBatch();

  static constexpr int kBatchRows = 64;
  std::optional<Statement> nvtx_insert_;
  std::optional<Statement> nvtx_batch_insert_;
  std::vector<NvtxRow> nvtx_batch_;
  std::optional<Statement> osrt_insert_;
};

}  // namespace gsys::report
