// SPDX-License-Identifier: Apache-2.0
#include "report/import/stream_importer.h"

namespace gsys::report {

using format::RecordKind;
using format::RecordView;

ModuleTable::ModuleTable(const std::vector<ImportModule*>& modules) : modules_(modules) {
  for (size_t k = 0; k < owners_.size(); ++k) {
    for (ImportModule* m : modules_) {
      if (!m->Owns(static_cast<RecordKind>(k))) continue;
      if (owners_[k] == nullptr) {
        owners_[k] = m;
      } else {
        conflicts_.push_back("kind " + std::to_string(k) + " is owned by " + owners_[k]->name() +
                             " and " + m->name());
      }
    }
  }
}

std::map<uint32_t, std::string> StreamImporter::ThreadNames() const {
  std::map<uint32_t, std::string> names = os_names_;
  for (const auto& [tid, name] : nvtx_names_) names[tid] = name;
  return names;
}

void StreamImporter::Loss(std::optional<uint32_t> tid) {
  for (ImportModule* m : modules_->modules()) m->OnLoss(context_, tid);
}

Status StreamImporter::Import(const format::StreamFile& file) {
  uint64_t next_seq = 0;
  for (const format::ChunkRef& chunk : file.chunks()) {
    // A missing chunk (damaged, or not written) may hold any thread's records.
    if (chunk.header.seq != next_seq) Loss(std::nullopt);
    next_seq = chunk.header.seq + 1;
    file.NoteRead(chunk.header.payload_size);  // bounded import memory (docs/reliability.md P4)
    if (process_.stream_id == 0) process_.stream_id = chunk.header.stream_id;
    if (process_.pid == 0) process_.pid = chunk.header.pid;
    format::RecordCursor cursor(chunk.payload, chunk.header.payload_size);
    RecordView r;
    while (cursor.Next(&r)) GSYS_RETURN_IF_ERROR(Record(r));
    if (cursor.malformed()) Malformed();
  }
  for (ImportModule* m : modules_->modules()) GSYS_RETURN_IF_ERROR(m->EndStream(context_));
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
      context_.NoteNs(b.monotonic_ns);  // ns, never ticks
      return OkStatus();
    }
    case RecordKind::kThreadName: {
      format::ThreadNameBody b;
      std::string_view name;
      if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.name_len, &name)) return Malformed(), OkStatus();
      auto& names = b.source == static_cast<uint16_t>(format::ThreadNameSource::kNvtx) ? nvtx_names_
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
      Loss(r.tid);
      return OkStatus();
    case RecordKind::kCaptureWindow: {
      format::CaptureWindowBody b;
      if (!r.Body(&b)) return Malformed(), OkStatus();
      windows_.push_back({context_.Rel(b.timestamp), b.started != 0, process_.pid});
      return OkStatus();
    }
    default:
      if (ImportModule* owner = modules_->Owner(r.kind)) return owner->OnRecord(context_, r);
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

}  // namespace gsys::report
