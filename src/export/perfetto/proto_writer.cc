// SPDX-License-Identifier: Apache-2.0
#include "export/perfetto/proto_writer.h"

#include <cstring>

namespace gsys::export_ {
namespace {

// Field numbers (protos/perfetto/trace/...).
constexpr uint32_t kTracePacket = 1;             // Trace.packet
constexpr uint32_t kPacketTimestamp = 8;         // TracePacket.timestamp
constexpr uint32_t kPacketSequenceId = 10;       // trusted_packet_sequence_id
constexpr uint32_t kPacketTrackEvent = 11;       // track_event
constexpr uint32_t kPacketInternedData = 12;     // interned_data
constexpr uint32_t kPacketSequenceFlags = 13;    // sequence_flags
constexpr uint32_t kPacketClockSnapshot = 6;     // clock_snapshot
constexpr uint32_t kPacketTrackDescriptor = 60;  // track_descriptor
constexpr uint32_t kSeqIncrementalStateCleared = 1;
constexpr uint32_t kSeqNeedsIncrementalState = 2;
// TrackDescriptor
constexpr uint32_t kTdUuid = 1, kTdName = 2, kTdProcess = 3, kTdThread = 4, kTdParent = 5,
                   kTdCounter = 8;
// CounterDescriptor.unit; CounterDescriptor.Unit UNIT_SIZE_BYTES.
constexpr uint32_t kCdUnit = 3, kCdUnitSizeBytes = 3;
// ProcessDescriptor / ThreadDescriptor
constexpr uint32_t kPdPid = 1, kPdName = 6, kThPid = 1, kThTid = 2, kThName = 5;
// TrackEvent
constexpr uint32_t kTeCategoryIids = 3, kTeDebug = 4, kTeType = 9, kTeNameIid = 10,
                   kTeTrackUuid = 11, kTeCounterValue = 30, kTeDoubleCounterValue = 44,
                   kTeFlowIds = 47, kTeTerminatingFlowIds = 48;
// DebugAnnotation
constexpr uint32_t kDaNameIid = 1, kDaInt = 4, kDaString = 6;
// InternedData: event_categories, event_names, debug_annotation_names; entries {iid=1, name=2}.
constexpr uint32_t kIdCategories = 1, kIdNames = 2, kIdArgNames = 3;
// CPU samples: TracePacket.perf_sample; PerfSample {cpu=1, pid=2, tid=3, callstack_iid=4};
// InternedData function_names / mapping_paths (InternedString {iid=1, str=2}), mappings
// (Mapping {iid=1, path_string_ids=7}), frames (Frame {iid=1, function_name_id=2, mapping_id=3,
// rel_pc=4}), callstacks (Callstack {iid=1, frame_ids=2, root frame first}).
constexpr uint32_t kPacketPerfSample = 66;
constexpr uint32_t kPsCpu = 1, kPsPid = 2, kPsTid = 3, kPsCallstack = 4;
constexpr uint32_t kIdFunctionNames = 5, kIdFrames = 6, kIdCallstacks = 7, kIdMappingPaths = 17,
                   kIdMappings = 19;
// ClockSnapshot.clocks {clock_id=1, timestamp=2}; BUILTIN_CLOCK_REALTIME=1, BOOTTIME=6.
constexpr uint32_t kCsClocks = 1;

enum DescriptorKind { kNamed = 0, kProcess = 1, kThread = 2, kCounter = 3, kCounterNoUnit = 4 };

}  // namespace

void ProtoBuffer::Fixed64(uint32_t field, uint64_t value) {
  Tag(field, 1);
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
  out_.append(bytes, 8);
}

void ProtoBuffer::Double(uint32_t field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  Fixed64(field, bits);
}

size_t ProtoBuffer::BeginNested(uint32_t field) {
  Tag(field, 2);
  size_t token = out_.size();
  out_.append("\x80\x80\x80\x00", 4);
  return token;
}

void ProtoBuffer::EndNested(size_t token) {
  size_t size = out_.size() - token - 4;
  for (size_t i = 0; i < 4; ++i) {
    auto byte = static_cast<char>((size >> (7 * i)) & 0x7F);
    out_[token + i] = static_cast<char>(byte | (i < 3 ? 0x80 : 0));
  }
}

uint64_t PerfettoTraceWriter::Intern(Interned& table, std::string_view text, uint32_t field,
                                     std::string& pending) {
  // Fibonacci hashing of the address: literals a few bytes apart land in different slots.
  uint64_t address = reinterpret_cast<uintptr_t>(text.data());
  Interned::Recent& recent = table.recent[(address * 0x9E3779B97F4A7C15u) >> 54];
  if (recent.data == text.data() && recent.text != nullptr && *recent.text == text) {
    return recent.iid;
  }
  auto it = table.ids.find(text);
  if (it != table.ids.end()) {
    recent = Interned::Recent{text.data(), &it->first, it->second};
    return it->second;
  }
  uint64_t iid = table.next++;
  it = table.ids.emplace(std::string(text), iid).first;
  recent = Interned::Recent{text.data(), &it->first, iid};
  ProtoBuffer p(pending);
  size_t entry = p.BeginNested(field);
  p.Varint(1, iid);
  p.Bytes(2, text);
  p.EndNested(entry);
  return iid;
}

Status PerfettoTraceWriter::Descriptor(uint64_t uuid, uint64_t parent_uuid, std::string_view name,
                                       int64_t pid, int64_t tid, int kind) {
  ProtoBuffer p(out_.buffer());
  size_t packet = p.BeginNested(kTracePacket);
  p.Varint(kPacketSequenceId, sequence_id_);
  size_t td = p.BeginNested(kPacketTrackDescriptor);
  p.Varint(kTdUuid, uuid);
  if (parent_uuid != 0) p.Varint(kTdParent, parent_uuid);
  if (kind == kProcess) {
    size_t pd = p.BeginNested(kTdProcess);
    p.Varint(kPdPid, static_cast<uint64_t>(pid));
    if (!name.empty()) p.Bytes(kPdName, name);
    p.EndNested(pd);
  } else if (kind == kThread) {
    size_t th = p.BeginNested(kTdThread);
    p.Varint(kThPid, static_cast<uint64_t>(pid));
    p.Varint(kThTid, static_cast<uint64_t>(tid));
    if (!name.empty()) p.Bytes(kThName, name);
    p.EndNested(th);
  } else {
    p.Bytes(kTdName, name);
    if (kind == kCounter || kind == kCounterNoUnit) {
      size_t cd = p.BeginNested(kTdCounter);
      if (kind == kCounter) p.Varint(kCdUnit, kCdUnitSizeBytes);
      p.EndNested(cd);
    }
  }
  p.EndNested(td);
  p.EndNested(packet);
  ++packets_;
  return out_.MaybeFlush();
}

Status PerfettoTraceWriter::ProcessTrack(uint64_t uuid, int64_t pid, std::string_view name) {
  return Descriptor(uuid, 0, name, pid, 0, kProcess);
}
Status PerfettoTraceWriter::ThreadTrack(uint64_t uuid, int64_t pid, int64_t tid,
                                        std::string_view name) {
  return Descriptor(uuid, 0, name, pid, tid, kThread);
}
Status PerfettoTraceWriter::NamedTrack(uint64_t uuid, uint64_t parent_uuid, std::string_view name) {
  return Descriptor(uuid, parent_uuid, name, 0, 0, kNamed);
}
Status PerfettoTraceWriter::CounterTrack(uint64_t uuid, uint64_t parent_uuid, std::string_view name,
                                         bool bytes) {
  return Descriptor(uuid, parent_uuid, name, 0, 0, bytes ? kCounter : kCounterNoUnit);
}

Status PerfettoTraceWriter::ClockSnapshot(uint64_t trace_ns, uint64_t realtime_ns) {
  ProtoBuffer p(out_.buffer());
  size_t packet = p.BeginNested(kTracePacket);
  p.Varint(kPacketSequenceId, sequence_id_);
  size_t cs = p.BeginNested(kPacketClockSnapshot);
  const uint64_t clocks[2][2] = {{6, trace_ns}, {1, realtime_ns}};
  for (const auto& clock : clocks) {
    size_t c = p.BeginNested(kCsClocks);
    p.Varint(1, clock[0]);
    p.Varint(2, clock[1]);
    p.EndNested(c);
  }
  p.EndNested(cs);
  p.EndNested(packet);
  ++packets_;
  return out_.MaybeFlush();
}

void PerfettoTraceWriter::ResetInterningIfFull() {
  bool full = false;
  for (const Interned* t : {&names_, &categories_, &arg_names_, &functions_, &module_paths_,
                            &mappings_, &frames_, &callstacks_}) {
    full = full || t->ids.size() > kMaxInterned;
  }
  if (!full) return;
  for (Interned* t : {&names_, &categories_, &arg_names_, &functions_, &module_paths_, &mappings_,
                      &frames_, &callstacks_}) {
    *t = Interned{};
  }
  cleared_ = true;
}

uint32_t PerfettoTraceWriter::InterningFlags() {
  uint32_t flags = kSeqNeedsIncrementalState;
  if (first_ || cleared_) flags |= kSeqIncrementalStateCleared;
  first_ = cleared_ = false;
  return flags;
}

bool PerfettoTraceWriter::NewEntry(Interned& table, std::string_view key, uint64_t* iid) {
  auto it = table.ids.find(key);
  if (it != table.ids.end()) {
    *iid = it->second;
    return false;
  }
  *iid = table.next++;
  table.ids.emplace(std::string(key), *iid);
  return true;
}

Status PerfettoTraceWriter::Sample(uint64_t timestamp, int64_t pid, int64_t tid, int64_t cpu,
                                   const std::vector<StackFrame>& stack) {
  ResetInterningIfFull();
  pending_.clear();
  ProtoBuffer data(pending_);
  std::string stack_key;  // the frame iids, root first, as text
  std::vector<uint64_t> frame_ids;
  frame_ids.reserve(stack.size());
  for (auto f = stack.rbegin(); f != stack.rend(); ++f) {
    uint64_t function = Intern(functions_, f->function, kIdFunctionNames, pending_);
    uint64_t path = Intern(module_paths_, f->module, kIdMappingPaths, pending_);
    uint64_t mapping = 0, frame = 0;
    if (NewEntry(mappings_, std::to_string(path), &mapping)) {
      size_t m = data.BeginNested(kIdMappings);
      data.Varint(1, mapping);
      data.Varint(7, path);
      data.EndNested(m);
    }
    if (NewEntry(frames_, std::to_string(function) + ":" + std::to_string(mapping), &frame)) {
      size_t fr = data.BeginNested(kIdFrames);
      data.Varint(1, frame);
      data.Varint(2, function);
      data.Varint(3, mapping);
      data.Varint(4, 0);  // rel_pc: set with mapping_id; the frame is already symbolized
      data.EndNested(fr);
    }
    frame_ids.push_back(frame);
    stack_key += std::to_string(frame) + ",";
  }
  uint64_t callstack = 0;
  if (NewEntry(callstacks_, stack_key, &callstack)) {
    size_t cs = data.BeginNested(kIdCallstacks);
    data.Varint(1, callstack);
    for (uint64_t id : frame_ids) data.Varint(2, id);
    data.EndNested(cs);
  }
  ProtoBuffer p(out_.buffer());
  size_t packet = p.BeginNested(kTracePacket);
  p.Varint(kPacketTimestamp, timestamp);
  p.Varint(kPacketSequenceId, sequence_id_);
  p.Varint(kPacketSequenceFlags, InterningFlags());
  if (!pending_.empty()) p.Bytes(kPacketInternedData, pending_);
  size_t ps = p.BeginNested(kPacketPerfSample);
  if (cpu >= 0) p.Varint(kPsCpu, static_cast<uint64_t>(cpu));
  p.Varint(kPsPid, static_cast<uint64_t>(pid));
  p.Varint(kPsTid, static_cast<uint64_t>(tid));
  p.Varint(kPsCallstack, callstack);
  p.EndNested(ps);
  p.EndNested(packet);
  ++packets_;
  return out_.MaybeFlush();
}

Status PerfettoTraceWriter::SliceEnd(uint64_t timestamp, uint64_t track_uuid) {
  // TrackEvent {type = TYPE_SLICE_END, track_uuid}: two tags, 1 + at most 10 varint bytes.
  char te[16] = {static_cast<char>(kTeType << 3),
                 static_cast<char>(TrackEventFields::Type::kSliceEnd),
                 static_cast<char>(kTeTrackUuid << 3)};
  size_t n = 3;
  for (uint64_t v = track_uuid;; v >>= 7) {
    if (v < 0x80) {
      te[n++] = static_cast<char>(v);
      break;
    }
    te[n++] = static_cast<char>((v & 0x7F) | 0x80);
  }
  ProtoBuffer p(out_.buffer());
  size_t packet = p.BeginNested(kTracePacket);
  p.Varint(kPacketTimestamp, timestamp);
  p.Varint(kPacketSequenceId, sequence_id_);
  p.Bytes(kPacketTrackEvent, std::string_view(te, n));
  p.EndNested(packet);
  ++packets_;
  return out_.MaybeFlush();
}

Status PerfettoTraceWriter::Event(const TrackEventFields& e) {
  using Type = TrackEventFields::Type;
  bool interns = e.type != Type::kSliceEnd && e.type != Type::kCounter;
  if (interns) ResetInterningIfFull();
  pending_.clear();
  event_.clear();
  ProtoBuffer te(event_);
  te.Varint(kTeType, static_cast<uint64_t>(e.type));
  te.Varint(kTeTrackUuid, e.track_uuid);
  if (interns) {
    if (!e.category.empty()) {
      te.Varint(kTeCategoryIids, Intern(categories_, e.category, kIdCategories, pending_));
    }
    te.Varint(kTeNameIid, Intern(names_, e.name, kIdNames, pending_));
    for (size_t i = 0; i < e.num_args; ++i) {
      const EventArg& arg = e.args[i];
      size_t da = te.BeginNested(kTeDebug);
      te.Varint(kDaNameIid, Intern(arg_names_, arg.key, kIdArgNames, pending_));
      if (arg.is_string) {
        te.Bytes(kDaString, arg.string_value);
      } else {
        te.Varint(kDaInt, static_cast<uint64_t>(arg.int_value));
      }
      te.EndNested(da);
    }
    if (e.flow_id != 0) te.Fixed64(kTeFlowIds, e.flow_id);
    if (e.terminating_flow_id != 0) te.Fixed64(kTeTerminatingFlowIds, e.terminating_flow_id);
  }
  if (e.type == Type::kCounter && e.counter_is_double) {
    te.Double(kTeDoubleCounterValue, e.double_counter_value);
  } else if (e.type == Type::kCounter) {
    te.Varint(kTeCounterValue, static_cast<uint64_t>(e.counter_value));
  }

  ProtoBuffer p(out_.buffer());
  size_t packet = p.BeginNested(kTracePacket);
  p.Varint(kPacketTimestamp, e.timestamp);
  p.Varint(kPacketSequenceId, sequence_id_);
  if (interns) p.Varint(kPacketSequenceFlags, InterningFlags());
  if (!pending_.empty()) p.Bytes(kPacketInternedData, pending_);
  p.Bytes(kPacketTrackEvent, event_);
  p.EndNested(packet);
  ++packets_;
  return out_.MaybeFlush();
}

}  // namespace gsys::export_
