// SPDX-License-Identifier: Apache-2.0
#include "report/import/osrt/osrt_import.h"

#include "format/osrt_functions.h"

namespace gsys::report {

Status OsrtImport::OnRecord(StreamContext& stream, const format::RecordView& r) {
  format::OsrtCallBody b;
  if (!r.Body(&b)) {
    ++(*context_.counters)[ImportCounter::kMalformedRecords];
    return OkStatus();
  }
  auto it = names_.find(b.function);
  if (it == names_.end()) {
    const char* name = format::OsrtFunctionName(b.function);
    GSYS_ASSIGN_OR_RETURN(int64_t id, context_.writer->Intern(name ? name : "unknown"));
    it = names_.emplace(b.function, id).first;
  }
  ++rows_;
  int64_t start = stream.Rel(b.start);
  int64_t end = stream.Rel(b.end);
  return context_.writer->InsertOsrt(start, end, GlobalTid(stream.pid(), r.tid), it->second,
                                     b.return_value);
}

Status OsrtImport::Finish(ImportSummary* summary) {
  summary->osrt_events = rows_;
  return OkStatus();
}

}  // namespace gsys::report
