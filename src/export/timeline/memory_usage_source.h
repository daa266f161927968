// SPDX-License-Identifier: Apache-2.0
// MemoryUsageSource: per-(process, device) GPU memory usage from CUDA_GPU_MEMORY_USAGE_EVENTS
// (`gsys profile --cuda-memory-usage=true`, nsys exports), streamed as counter samples.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "common/status.h"
#include "export/table_filter.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

// One counter sample: the bytes allocated minus freed by `global_pid` on `device_id` after the
// event at `ts` (the running sum since the start of the capture; frees of memory allocated
// before it can make it negative).
struct MemorySample {
  int64_t ts = 0;
  int64_t global_pid = 0;
  int64_t device_id = 0;
  int64_t bytes = 0;
};

// How: one SQL cursor ordered by start (ties: row order); memoryOperationType 0
// (CUDA_DEV_MEM_EVENT_OPR_ALLOCATION) adds `bytes`, 1 (DEALLOCATION) subtracts; other values
// yield no sample. Memory: one running sum per (process, device), never the number of rows.
// A report without the table (or with it empty, or excluded by --tables) yields nothing.
// Threading: one thread; borrows `reader`, which must outlive the source.
class MemoryUsageSource {
 public:
  static Result<std::unique_ptr<MemoryUsageSource>> Open(report::ReportReader& reader,
                                                         const TableFilter& filter);

  // The next sample at or before `up_to`, or nullptr when the next one is later or there is none.
  // The sample is valid until the next call.
  Result<const MemorySample*> NextUpTo(int64_t up_to);
  // The next sample, or nullptr after the last.
  Result<const MemorySample*> Next() { return NextUpTo(INT64_MAX); }

 private:
  MemoryUsageSource() = default;
  Status Step();

  std::unique_ptr<report::Database> raw_;  // bounded sort memory, as TimelineSource
  std::unique_ptr<report::Statement> stmt_;
  bool has_row_ = false;
  std::map<std::pair<int64_t, int64_t>, int64_t> totals_;  // (globalPid, deviceId) -> bytes
  MemorySample sample_;
};

}  // namespace gsys::export_
