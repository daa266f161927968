// SPDX-License-Identifier: Apache-2.0
#include "report/import/cuda/cuda_import.h"

#include <algorithm>
#include <string>

#include "common/strings.h"
#include "format/cuda_records.h"

namespace gsys::report {

Status CudaImport::OnRecord(StreamContext& stream, const format::RecordView& r) {
  if (!cuda_) {
    ReportWriter* writer = context_.writer;
    cuda_ = std::make_unique<CudaImporter>(&writer->db(), [this, writer](std::string_view text) {
      auto id = writer->Intern(text);
      if (!id.ok()) {
        if (intern_status_.ok()) intern_status_ = id.status();
        return int64_t{0};
      }
      return *id;
    });
    GSYS_RETURN_IF_ERROR(cuda_->Begin());
  }
  ++records_;
  const ProcessFacts& process = stream.process();
  CudaStreamContext ctx{process.pid, process.stream_id, GlobalPid(process.pid), context_.origin};
  if (r.kind == format::kCudaKernel || r.kind == format::kCudaMemcpy ||
      r.kind == format::kCudaMemset) {
    struct Span {  // these bodies start with (start, end) in MONOTONIC ns
      int64_t start, end;
    } span;
    if (r.Body(&span)) last_ts_ = std::max(last_ts_, span.end);
  }
  GSYS_RETURN_IF_ERROR(cuda_->Add(ctx, r));
  return intern_status_;
}

Status CudaImport::Finish(ImportSummary* summary) {
  GSYS_RETURN_IF_ERROR(intern_status_);
  if (!cuda_) return OkStatus();
  GSYS_RETURN_IF_ERROR(cuda_->Finish());
  const CudaImportStats& cs = cuda_->stats();
  summary->cuda_records = records_;
  summary->cuda_kernels = cs.kernels;
  summary->cuda_api_calls = cs.api;
  summary->cuda_memory_ops = cs.memcpys + cs.memsets;
  if (cs.dropped_by_cupti != 0) {
    summary->warnings.push_back(std::to_string(cs.dropped_by_cupti) + " cuda_dropped_records");
  }
  if (!cs.other_subscriber.empty()) {
    summary->warnings.push_back("cuda_other_cupti_client (" + cs.other_subscriber + ")");
  }
  summary->domain_lines.push_back(
      "CUDA: " + GroupThousands(std::to_string(cs.kernels)) + " kernels, " +
      GroupThousands(std::to_string(cs.memcpys + cs.memsets)) + " memory operations, " +
      GroupThousands(std::to_string(cs.api)) + " API calls");
  return OkStatus();
}

}  // namespace gsys::report
