// SPDX-License-Identifier: Apache-2.0
#include "report/import/cuda_session.h"

#include <algorithm>

#include "format/cuda_records.h"

namespace gsys::report {

ForeignRecordHandler CudaSessionImport::Handler() {
  return [this](const ProcessFacts& p, const format::RecordView& r) { return Add(p, r); };
}

bool CudaSessionImport::Add(const ProcessFacts& process, const format::RecordView& r) {
  if (static_cast<uint16_t>(r.kind) < static_cast<uint16_t>(format::kCudaString)) return false;
  if (!status_.ok()) return true;
  if (!cuda_) {
    cuda_ = std::make_unique<CudaImporter>(&writer_->db(), [this](std::string_view text) {
      auto id = writer_->Intern(text);
      if (!id.ok()) {
        if (status_.ok()) status_ = id.status();
        return int64_t{0};
      }
      return *id;
    });
    status_ = cuda_->Begin();
    if (!status_.ok()) return true;
  }
  ++records_;
  CudaStreamContext ctx{process.pid, process.stream_id, GlobalPid(process.pid), origin_};
  if (r.kind == format::kCudaKernel || r.kind == format::kCudaMemcpy ||
      r.kind == format::kCudaMemset) {
    struct Span {  // these bodies start with (start, end) in MONOTONIC ns
      int64_t start, end;
    } span;
    if (r.Body(&span)) last_ts_ = std::max(last_ts_, span.end);
  }
  Status st = cuda_->Add(ctx, r);
  if (!st.ok() && status_.ok()) status_ = st;
  return true;
}

Status CudaSessionImport::Finish() {
  GSYS_RETURN_IF_ERROR(status_);
  if (!cuda_) return OkStatus();
  return cuda_->Finish();
}

}  // namespace gsys::report
