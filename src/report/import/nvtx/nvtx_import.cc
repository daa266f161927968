// SPDX-License-Identifier: Apache-2.0
#include "report/import/nvtx/nvtx_import.h"

#include <cstring>

#include "common/strings.h"
#include "report/import/nvtx/nvtx_domain_filter.h"

namespace gsys::report {
namespace {

using format::RecordKind;
using format::RecordView;

// ENUM_NSYS_EVENT_TYPE values (docs/report-schema.md, Enumerations).
constexpr int kNvtxCategory = 33;
constexpr int kNvtxMark = 34;
constexpr int kNvtxPushPopRange = 59;
constexpr int kNvtxStartEndRange = 60;
constexpr int kNvtxDomainCreate = 75;

}  // namespace

bool NvtxImport::Owns(RecordKind kind) const {
  return kind >= RecordKind::kNvtxPush && kind <= RecordKind::kNvtxNameCategory;
}

Status NvtxImport::OnRecord(StreamContext& stream, const RecordView& r) {
  switch (r.kind) {
    case RecordKind::kNvtxPush:
    case RecordKind::kNvtxStart:
      return OnOpen(r);
    case RecordKind::kNvtxPop:
      return OnPop(stream, r);
    case RecordKind::kNvtxEnd:
      return OnEnd(stream, r);
    case RecordKind::kNvtxMark:
      return OnMark(stream, r);
    default:  // kNvtxDomainCreate, kNvtxRegisterString, kNvtxNameCategory
      return OnName(stream, r);
  }
}

void NvtxImport::OnLoss(const StreamContext& /*stream*/, std::optional<uint32_t> tid) {
  if (tid) {
    CutOpenRanges(*tid);
  } else {
    CutAllOpenRanges();
  }
}

void NvtxImport::CutAllOpenRanges() {
  for (const auto& [key, stack] : stacks_) Count(ImportCounter::kRangesCutByLoss, stack.size());
  stacks_.clear();
  last_stack_ = nullptr;
}

void NvtxImport::CutOpenRanges(uint32_t tid) {
  auto it = stacks_.lower_bound({tid, 0});
  while (it != stacks_.end() && it->first.first == tid) {
    Count(ImportCounter::kRangesCutByLoss, it->second.size());
    it = stacks_.erase(it);
  }
  last_stack_ = nullptr;
}

Status NvtxImport::EndStream(StreamContext& /*stream*/) {
  Count(ImportCounter::kUnclosedRanges, starts_.size());
  for (const auto& [key, stack] : stacks_) Count(ImportCounter::kUnclosedRanges, stack.size());
  stacks_.clear();
  last_stack_ = nullptr;
  starts_.clear();
  registered_.clear();
  return OkStatus();
}

Status NvtxImport::Finish(ImportSummary* summary) {
  summary->nvtx_events = rows_;
  const format::SessionMeta& meta = *context_.meta;
  if (!meta.count("nvtx_domain_include") && !meta.count("nvtx_domain_exclude")) {
    return OkStatus();
  }
  GSYS_RETURN_IF_ERROR(context_.writer->FlushPending());
  auto list = [&meta](const char* key) {
    auto it = meta.find(key);
    return it == meta.end() || it->second.empty() ? std::vector<std::string>{}
                                                  : Split(it->second, ',');
  };
  return FilterNvtxDomains(context_.writer->db(), list("nvtx_domain_include"),
                           list("nvtx_domain_exclude"), summary);
}

Status NvtxImport::OnOpen(const RecordView& r) {
  Open open{};
  if (!r.Body(&open.body) || !r.Text(sizeof(open.body), 0, open.body.text_len, &open.text)) {
    Count(ImportCounter::kMalformedRecords);
    return OkStatus();
  }
  open.tid = r.tid;
  if (r.kind == RecordKind::kNvtxPush) {
    Stack(r.tid, open.body.domain).push_back(open);
  } else {
    starts_[open.body.id] = open;
  }
  return OkStatus();
}

void NvtxImport::FillFromOpen(StreamContext& stream, const Open& open, NvtxRow* row) {
  const format::NvtxEventBody& b = open.body;
  row->start = stream.Rel(b.timestamp);
  row->global_tid = GlobalTid(stream.pid(), open.tid);
  row->domain_id = b.domain;
  if (b.category != 0) row->category = b.category;
  if (b.has_color) row->color = static_cast<int64_t>(b.color);
  row->payload_type = b.payload_type;
  row->payload = b.payload;
  if (b.message_type == static_cast<uint8_t>(format::NvtxMessage::kRegistered)) {
    uint64_t handle = b.id;
    if (open.text.size() == sizeof(uint64_t)) {  // start records carry the handle as text
      std::memcpy(&handle, open.text.data(), sizeof(handle));
    }
    auto it = registered_.find(handle);
    if (it == registered_.end()) {
      Count(ImportCounter::kUnknownStrings);
    } else {
      row->text_id = it->second;
    }
  } else if (b.message_type == static_cast<uint8_t>(format::NvtxMessage::kText)) {
    row->text = open.text;
  }
}

Status NvtxImport::OnPop(StreamContext& stream, const RecordView& r) {
  format::NvtxPopBody b;
  if (!r.Body(&b)) return Count(ImportCounter::kMalformedRecords), OkStatus();
  std::vector<Open>& stack = Stack(r.tid, b.domain);
  if (stack.empty()) {
    Count(ImportCounter::kUnmatchedPops);
    return OkStatus();
  }
  NvtxRow row;
  FillFromOpen(stream, stack.back(), &row);
  stack.pop_back();
  row.end = stream.Rel(b.timestamp);
  row.event_type = kNvtxPushPopRange;
  ++rows_;
  return context_.writer->InsertNvtx(row);
}

Status NvtxImport::OnEnd(StreamContext& stream, const RecordView& r) {
  format::NvtxEndBody b;
  if (!r.Body(&b)) return Count(ImportCounter::kMalformedRecords), OkStatus();
  auto it = starts_.find(b.id);
  if (it == starts_.end()) {
    Count(ImportCounter::kUnmatchedEnds);
    return OkStatus();
  }
  NvtxRow row;
  FillFromOpen(stream, it->second, &row);
  row.end = stream.Rel(b.timestamp);
  row.event_type = kNvtxStartEndRange;
  row.range_id = static_cast<int64_t>(b.id);
  if (r.tid != it->second.tid) row.end_global_tid = GlobalTid(stream.pid(), r.tid);
  starts_.erase(it);
  ++rows_;
  return context_.writer->InsertNvtx(row);
}

Status NvtxImport::OnMark(StreamContext& stream, const RecordView& r) {
  Open open{};
  if (!r.Body(&open.body) || !r.Text(sizeof(open.body), 0, open.body.text_len, &open.text)) {
    Count(ImportCounter::kMalformedRecords);
    return OkStatus();
  }
  open.tid = r.tid;
  NvtxRow row;
  FillFromOpen(stream, open, &row);
  row.event_type = kNvtxMark;
  ++rows_;
  return context_.writer->InsertNvtx(row);
}

Status NvtxImport::OnName(StreamContext& stream, const RecordView& r) {
  format::NvtxNameBody b;
  std::string_view text;
  if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.text_len, &text)) {
    return Count(ImportCounter::kMalformedRecords), OkStatus();
  }
  if (r.kind == RecordKind::kNvtxRegisterString) {
    GSYS_ASSIGN_OR_RETURN(int64_t id, context_.writer->Intern(text));
    registered_[b.id] = id;
    return OkStatus();
  }
  NvtxRow row;
  row.start = stream.Rel(b.timestamp);
  row.global_tid = GlobalTid(stream.pid(), r.tid);
  row.domain_id = b.domain;
  row.text = text;
  if (r.kind == RecordKind::kNvtxDomainCreate) {
    row.event_type = kNvtxDomainCreate;
  } else {
    row.event_type = kNvtxCategory;
    row.category = static_cast<int64_t>(b.id);
  }
  return context_.writer->InsertNvtx(row);
}

}  // namespace gsys::report
