// SPDX-License-Identifier: Apache-2.0
// GpuMetricsImport, the GPU metrics import module: it owns no record kind; at Finish it reads
// the session's GPU metrics files (gpu_metrics_importer.h) into GSYS_GPU_METRICS.
#pragma once

#include "report/import/import_module.h"

namespace gsys::report {

class GpuMetricsImport : public ImportModule {
 public:
  explicit GpuMetricsImport(const ImportContext& context) : context_(context) {}

  const char* name() const override { return "gpu_metrics"; }
  bool Owns(format::RecordKind /*kind*/) const override { return false; }
  Status OnRecord(StreamContext& /*stream*/, const format::RecordView& /*r*/) override {
    return OkStatus();
  }
  Status Finish(ImportSummary* summary) override;

 private:
  ImportContext context_;
};

}  // namespace gsys::report
