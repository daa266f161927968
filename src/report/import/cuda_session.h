// SPDX-License-Identifier: Apache-2.0
// CudaSessionImport: connects ImportSession to the CudaImporter. Every stream of a session
// (the CPU stream and the CUDA stream of each process) is decoded by a StreamImporter whose
// foreign-record handler is Handler(): record kinds 128..255 go to one CudaImporter that
// shares the report's StringIds and time origin. The CUDA tables that the canonical schema
// lacks (graph trace, memory usage, context info) are created at the first CUDA record only.
//
// Threading: one thread, like the import.
#pragma once

#include <cstdint>
#include <memory>

#include "common/status.h"
#include "report/import/cuda_importer.h"
#include "report/import/report_writer.h"
#include "report/import/stream_importer.h"

namespace gsys::report {

class CudaSessionImport {
 public:
  // `origin` is the session start in CLOCK_MONOTONIC ns (CUDA timestamps are MONOTONIC).
  CudaSessionImport(ReportWriter* writer, int64_t origin) : writer_(writer), origin_(origin) {}

  // A handler for StreamImporter; a failure is kept and returned by status().
  ForeignRecordHandler Handler();
  // The first error seen by the handler (OK when none).
  const Status& status() const { return status_; }
  // Writes streams, devices and diagnostics when any CUDA record was seen.
  Status Finish();

  uint64_t records() const { return records_; }
  int64_t last_timestamp() const { return last_ts_; }
  // Null before the first CUDA record.
  const CudaImportStats* stats() const { return cuda_ ? &cuda_->stats() : nullptr; }

 private:
  bool Add(const ProcessFacts& process, const format::RecordView& record);

  ReportWriter* writer_;
  int64_t origin_;
  std::unique_ptr<CudaImporter> cuda_;
  Status status_ = OkStatus();
  uint64_t records_ = 0;
  int64_t last_ts_ = 0;
};

}  // namespace gsys::report
