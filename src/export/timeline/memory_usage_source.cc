// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/memory_usage_source.h"

#include <climits>

#include "common/saturating.h"

namespace gsys::export_ {
namespace {

constexpr const char* kTable = "CUDA_GPU_MEMORY_USAGE_EVENTS";
constexpr const char* kSql =
    "SELECT start, globalPid, deviceId, bytes, memoryOperationType "
    "FROM CUDA_GPU_MEMORY_USAGE_EVENTS ORDER BY start, rowid";
constexpr int64_t kAllocation = 0;  // ENUM_CUDA_DEV_MEM_EVENT_OPER
constexpr int64_t kDeallocation = 1;

}  // namespace

Result<std::unique_ptr<MemoryUsageSource>> MemoryUsageSource::Open(report::ReportReader& reader,
                                                                   const TableFilter& filter) {
  std::unique_ptr<MemoryUsageSource> source(new MemoryUsageSource());
  if (!filter.Matches(kTable)) return source;
  GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(kTable));
  if (!rows) return source;
  Result<report::Database> raw =
      report::Database::Open(reader.path(), report::Database::Mode::kReadOnly);
  Result<report::Statement> prepared = Status(StatusCode::kInternal, "no raw connection");
  if (raw.ok()) {
    source->raw_ = std::make_unique<report::Database>(std::move(raw).value());
    prepared = source->raw_->Prepare(kSql);
  }
  if (!prepared.ok()) prepared = reader.db().Prepare(kSql);
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, std::move(prepared));
  source->stmt_ = std::make_unique<report::Statement>(std::move(stmt));
  GSYS_RETURN_IF_ERROR(source->Step());
  return source;
}

Status MemoryUsageSource::Step() {
  GSYS_ASSIGN_OR_RETURN(has_row_, stmt_->Step());
  return OkStatus();
}

Result<const MemorySample*> MemoryUsageSource::NextUpTo(int64_t up_to) {
  while (has_row_ && stmt_->ColumnInt(0) <= up_to) {
    report::Statement& s = *stmt_;
    int64_t op = s.ColumnInt(4);
    if (op != kAllocation && op != kDeallocation) {
      GSYS_RETURN_IF_ERROR(Step());
      continue;
    }
    sample_.ts = s.ColumnInt(0);
    sample_.global_pid = s.ColumnInt(1);
    sample_.device_id = s.ColumnInt(2);
    int64_t& total = totals_[{sample_.global_pid, sample_.device_id}];
    // Saturating: byte counts are untrusted (-INT64_MIN overflows).
    total = op == kAllocation ? SaturatingAdd(total, s.ColumnInt(3))
                              : SaturatingSub(total, s.ColumnInt(3));
    sample_.bytes = total;
    GSYS_RETURN_IF_ERROR(Step());
    return static_cast<const MemorySample*>(&sample_);
  }
  return static_cast<const MemorySample*>(nullptr);
}

}  // namespace gsys::export_
