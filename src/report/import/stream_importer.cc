// SPDX-License-Identifier: Apache-2.0
#include "report/import/stream_importer.h"

#include <cstring>

#include "format/osrt_functions.h"

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

void StreamImporter::CutAllOpenRanges() {
  for (const auto& [key, stack] : stacks_) {
    (*counters_)[ImportCounter::kRangesCutByLoss] += stack.size();
  }
  stacks_.clear();
  last_stack_ = nullptr;
}

void StreamImporter::CutOpenRanges(uint32_t tid) {
  auto it = stacks_.lower_bound({tid, 0});
  while (it != stacks_.end() && it->first.first == tid) {
    (*counters_)[ImportCounter::kRangesCutByLoss] += it->second.size();
    it = stacks_.erase(it);
  }
  last_stack_ = nullptr;
}

std::map<uint32_t, std::string> StreamImporter::ThreadNames() const {
  std::map<uint32_t, std::string> names = os_names_;
  for (const auto& [tid, name] : nvtx_names_) names[tid] = name;
  return names;
}

Status StreamImporter::Import(const format::StreamFile& file) {
  uint64_t next_seq = 0;
  for (const format::ChunkRef& chunk : file.chunks()) {
    // A missing chunk (damaged, or not written) may hold any thread's pops.
    if (chunk.header.seq != next_seq) CutAllOpenRanges();
    next_seq = chunk.header.seq + 1;
    file.NoteRead(chunk.header.payload_size);  // bounded import memory (docs/reliability.md P4)
    if (process_.stream_id == 0) process_.stream_id = chunk.header.stream_id;
    if (process_.pid == 0) process_.pid = chunk.header.pid;
    format::RecordCursor cursor(chunk.payload, chunk.header.payload_size);
    RecordView r;
    while (cursor.Next(&r)) GSYS_RETURN_IF_ERROR(Record(r));
    if (cursor.malformed()) Malformed();
  }
  if (libapi_ != nullptr) GSYS_RETURN_IF_ERROR(libapi_->EndStream());
  (*counters_)[ImportCounter::kUnclosedRanges] += starts_.size();
  for (const auto& [key, stack] : stacks_) (*counters_)[ImportCounter::kUnclosedRanges] += stack.size();
  (*counters_)[ImportCounter::kDroppedRecords] += dropped_;
  (*counters_)[ImportCounter::kThreadsWithoutBuffer] += without_buffer_;
  (*counters_)[ImportCounter::kNvtxStringsTruncated] += truncated_text_;
  (*counters_)[ImportCounter::kDiskReserveRecords] += reserve_records_;
  (*counters_)[ImportCounter::kDiskReserveBytes] += reserve_bytes_;
  return OkStatus();
}

Status StreamImporter::Record(const RecordView& r) {
  switch (r.kind) {
    case RecordKind::kProcessStart:
      return OnProcessStart(r);
    case RecordKind::kProcessEnd: {
      format::ClockPairBody b;
      if (!r.Body(&b)) return Malformed(), OkStatus();
      process_.end_monotonic = b.monotonic_ns;
      process_.end_realtime = b.realtime_ns;
      process_.has_end = true;
      Rel(b.monotonic_ns);
      return OkStatus();
    }
    case RecordKind::kThreadName: {
      format::ThreadNameBody b;
      std::string_view name;
      if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.name_len, &name)) return Malformed(), OkStatus();
      auto& names = b.source == static_cast<uint16_t>(format::ThreadNameSource::kNvtx)
                        ? nvtx_names_
                        : os_names_;
      names[b.thread_tid] = std::string(name);
      return OkStatus();
    }
    case RecordKind::kCounter:
      OnCounter(r);
      return OkStatus();
    case RecordKind::kClockSync:
      return OkStatus();  // used by the session's TickClock
    case RecordKind::kThreadGap:
      CutOpenRanges(r.tid);
      return OkStatus();
    case RecordKind::kCaptureWindow: {
      format::CaptureWindowBody b;
      if (!r.Body(&b)) return Malformed(), OkStatus();
      windows_.push_back({RelTicks(b.timestamp), b.started != 0, process_.pid});
      return OkStatus();
    }
    case RecordKind::kNvtxPush:
    case RecordKind::kNvtxStart:
      return OnNvtxOpen(r);
    case RecordKind::kNvtxPop:
      return OnNvtxPop(r);
    case RecordKind::kNvtxEnd:
      return OnNvtxEnd(r);
    case RecordKind::kNvtxMark:
      return OnNvtxMark(r);
    case RecordKind::kNvtxDomainCreate:
    case RecordKind::kNvtxRegisterString:
    case RecordKind::kNvtxNameCategory:
      return OnNvtxName(r);
    case RecordKind::kOsrtCall:
      return OnOsrt(r);
    default:
      if (libapi_ != nullptr && r.kind >= RecordKind::kLibApiFirst && r.kind <= RecordKind::kLibApiLast) {
        return libapi_->OnRecord(process_.pid, r, [this](int64_t t) { return RelTicks(t); });
      }
      if (foreign_ && foreign_(process_, r)) return OkStatus();
      ++(*counters_)[ImportCounter::kUnknownRecords];
      return OkStatus();
  }
}

Status StreamImporter::OnProcessStart(const RecordView& r) {
  format::ProcessStartBody b;
  std::string_view name, cmdline;
  if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.name_len, &name) ||
      !r.Text(sizeof(b), b.name_len, b.cmdline_len, &cmdline)) {
    Malformed();
    return OkStatus();
  }
  process_.pid = b.pid;
  process_.ppid = b.ppid;
  process_.name = std::string(name);
  process_.args.clear();
  size_t begin = 0;
  for (size_t i = 0; i <= cmdline.size(); ++i) {
    if (i == cmdline.size() || cmdline[i] == '\0') {
      if (i > begin) process_.args.emplace_back(cmdline.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  process_.start_monotonic = b.clock.monotonic_ns;
  process_.start_realtime = b.clock.realtime_ns;
  process_.has_start = true;
  return OkStatus();
}

void StreamImporter::OnCounter(const RecordView& r) {
  format::CounterBody b;
  if (!r.Body(&b)) return Malformed();
  // Counters are cumulative: keep the latest value.
  switch (static_cast<format::CounterId>(b.id)) {
    case format::CounterId::kDroppedRecords:
      dropped_ = b.value;
      break;
    case format::CounterId::kThreadsWithoutBuffer:
      without_buffer_ = b.value;
      break;
    case format::CounterId::kTruncatedText:
      // Emitted by the thread that cut the string: records of several threads' buffers may
      // arrive out of order, so the total is the largest value.
      if (b.value > truncated_text_) truncated_text_ = b.value;
      break;
    case format::CounterId::kDiskReserveRecords:
      reserve_records_ = b.value;
      break;
    case format::CounterId::kDiskReserveBytes:
      reserve_bytes_ = b.value;
      break;
    case format::CounterId::kWriteErrors:
    case format::CounterId::kCaptureDisabled:
      ++(*counters_)[ImportCounter::kCaptureWriteErrors];
      break;
    default:
      break;
  }
}

Status StreamImporter::OnNvtxOpen(const RecordView& r) {
  Open open{};
  if (!r.Body(&open.body) || !r.Text(sizeof(open.body), 0, open.body.text_len, &open.text)) {
    Malformed();
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

Status StreamImporter::FillFromOpen(const Open& open, NvtxRow* row) {
  const format::NvtxEventBody& b = open.body;
  row->start = RelTicks(b.timestamp);
  row->global_tid = GlobalTid(process_.pid, open.tid);
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
      ++(*counters_)[ImportCounter::kUnknownStrings];
    } else {
      row->text_id = it->second;
    }
  } else if (b.message_type == static_cast<uint8_t>(format::NvtxMessage::kText)) {
    row->text = open.text;
  }
  return OkStatus();
}

Status StreamImporter::OnNvtxPop(const RecordView& r) {
  format::NvtxPopBody b;
  if (!r.Body(&b)) return Malformed(), OkStatus();
  std::vector<Open>& stack = Stack(r.tid, b.domain);
  if (stack.empty()) {
    ++(*counters_)[ImportCounter::kUnmatchedPops];
    return OkStatus();
  }
  NvtxRow row;
  GSYS_RETURN_IF_ERROR(FillFromOpen(stack.back(), &row));
  stack.pop_back();
  row.end = RelTicks(b.timestamp);
  row.event_type = kNvtxPushPopRange;
  ++nvtx_rows_;
  return writer_->InsertNvtx(row);
}

Status StreamImporter::OnNvtxEnd(const RecordView& r) {
  format::NvtxEndBody b;
  if (!r.Body(&b)) return Malformed(), OkStatus();
  auto it = starts_.find(b.id);
  if (it == starts_.end()) {
    ++(*counters_)[ImportCounter::kUnmatchedEnds];
    return OkStatus();
  }
  NvtxRow row;
  GSYS_RETURN_IF_ERROR(FillFromOpen(it->second, &row));
  row.end = RelTicks(b.timestamp);
  row.event_type = kNvtxStartEndRange;
  row.range_id = static_cast<int64_t>(b.id);
  if (r.tid != it->second.tid) row.end_global_tid = GlobalTid(process_.pid, r.tid);
  starts_.erase(it);
  ++nvtx_rows_;
  return writer_->InsertNvtx(row);
}

Status StreamImporter::OnNvtxMark(const RecordView& r) {
  Open open{};
  if (!r.Body(&open.body) || !r.Text(sizeof(open.body), 0, open.body.text_len, &open.text)) {
    Malformed();
    return OkStatus();
  }
  open.tid = r.tid;
  NvtxRow row;
  GSYS_RETURN_IF_ERROR(FillFromOpen(open, &row));
  row.event_type = kNvtxMark;
  ++nvtx_rows_;
  return writer_->InsertNvtx(row);
}

Status StreamImporter::OnNvtxName(const RecordView& r) {
  format::NvtxNameBody b;
  std::string_view text;
  if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.text_len, &text)) return Malformed(), OkStatus();
  if (r.kind == RecordKind::kNvtxRegisterString) {
    GSYS_ASSIGN_OR_RETURN(int64_t id, writer_->Intern(text));
    registered_[b.id] = id;
    return OkStatus();
  }
  NvtxRow row;
  row.start = RelTicks(b.timestamp);
  row.global_tid = GlobalTid(process_.pid, r.tid);
  row.domain_id = b.domain;
  row.text = text;
  if (r.kind == RecordKind::kNvtxDomainCreate) {
    row.event_type = kNvtxDomainCreate;
  } else {
    row.event_type = kNvtxCategory;
    row.category = static_cast<int64_t>(b.id);
  }
  return writer_->InsertNvtx(row);
}

Status StreamImporter::OnOsrt(const RecordView& r) {
  format::OsrtCallBody b;
  if (!r.Body(&b)) return Malformed(), OkStatus();
  auto it = osrt_names_.find(b.function);
  if (it == osrt_names_.end()) {
    const char* name = format::OsrtFunctionName(b.function);
    GSYS_ASSIGN_OR_RETURN(int64_t id, writer_->Intern(name ? name : "unknown"));
    it = osrt_names_.emplace(b.function, id).first;
  }
  ++osrt_rows_;
  return writer_->InsertOsrt(RelTicks(b.start), RelTicks(b.end), GlobalTid(process_.pid, r.tid), it->second,
                             b.return_value);
}

}  // namespace gsys::report
