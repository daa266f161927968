// SPDX-License-Identifier: Apache-2.0
// CudaImport, the CUDA import module: record kinds 128..255 (the CUDA stream of each process,
// written by capture/cupti) go to one CudaImporter that shares the report's StringIds and time
// origin. The CUDA tables are created at the first CUDA record only; Finish writes streams,
// devices and diagnostics when any CUDA record was seen.
//
// Threading: one thread, like the import.
#pragma once

#include <cstdint>
#include <memory>

#include "common/status.h"
#include "report/import/cuda/cuda_importer.h"
#include "report/import/import_module.h"

namespace gsys::report {

class CudaImport : public ImportModule {
 public:
  explicit CudaImport(const ImportContext& context) : context_(context) {}

  const char* name() const override { return "cuda"; }
  bool Owns(format::RecordKind kind) const override {
    return kind >= format::RecordKind::kCudaFirst && kind <= format::RecordKind::kCudaLast;
  }
  Status OnRecord(StreamContext& stream, const format::RecordView& r) override;
  Status Finish(ImportSummary* summary) override;
  // CUDA timestamps are CLOCK_MONOTONIC ns, not stream ticks.
  int64_t last_timestamp() const override { return last_ts_; }

 private:
  ImportContext context_;
  std::unique_ptr<CudaImporter> cuda_;
  // The first error of the string interner, which cannot return one (CudaImporter's callback).
  Status intern_status_ = OkStatus();
  uint64_t records_ = 0;
  int64_t last_ts_ = 0;
};

}  // namespace gsys::report
