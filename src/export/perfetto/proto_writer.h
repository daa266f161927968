// SPDX-License-Identifier: Apache-2.0
// Hand-written protobuf wire encoding of the Perfetto trace format (Trace, TracePacket,
// TrackDescriptor, TrackEvent, InternedData, ClockSnapshot), following the public
// protos/perfetto/trace/*.proto field numbers. No libprotobuf dependency.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "export/output_file.h"
#include "export/timeline/timeline_event.h"

namespace gsys::export_ {

// Appends protobuf fields to a string. Nested messages reserve a 4-byte length that EndNested
// patches (a redundant varint, as Perfetto's protozero does), so nothing is encoded twice.
class ProtoBuffer {
 public:
  explicit ProtoBuffer(std::string& out) : out_(out) {}
  void Varint(uint32_t field, uint64_t value) {
    Tag(field, 0);
    RawVarint(value);
  }
  void Fixed64(uint32_t field, uint64_t value);
  void Double(uint32_t field, double value);
  void Bytes(uint32_t field, std::string_view value) {
    Tag(field, 2);
    RawVarint(value.size());
    out_.append(value);
  }
  // Returns the token EndNested needs.
  size_t BeginNested(uint32_t field);
  void EndNested(size_t token);

 private:
  void Tag(uint32_t field, uint32_t wire_type) { RawVarint((uint64_t{field} << 3) | wire_type); }
  void RawVarint(uint64_t value) {
    while (value >= 0x80) {
      out_.push_back(static_cast<char>((value & 0x7F) | 0x80));
      value >>= 7;
    }
    out_.push_back(static_cast<char>(value));
  }
  std::string& out_;
};

// One TrackEvent to write.
struct TrackEventFields {
  enum class Type { kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4 };
  Type type = Type::kSliceBegin;
  uint64_t timestamp = 0;
  uint64_t track_uuid = 0;
  std::string_view name;           // interned
  std::string_view category;       // interned
  const EventArg* args = nullptr;  // debug annotations (names interned)
  size_t num_args = 0;
  uint64_t flow_id = 0;              // flow_ids: starts (or continues) an arrow
  uint64_t terminating_flow_id = 0;  // terminating_flow_ids: ends an arrow
  int64_t counter_value = 0;         // kCounter (TrackEvent.counter_value)
  bool counter_is_double = false;    // kCounter: double_counter_value instead
  double double_counter_value = 0;
};

// PerfettoTraceWriter: writes TracePackets of one trusted sequence into an OutputFile (several
// writers with distinct sequence ids may share one file: a merged multi-report trace).
// Event names, categories and argument names are interned (InternedData); the tables are reset
// with SEQ_INCREMENTAL_STATE_CLEARED when they reach a cap, so memory stays bounded.
// Threading: one thread.
class PerfettoTraceWriter {
 public:
  explicit PerfettoTraceWriter(OutputFile& out, uint32_t sequence_id = 1)
      : out_(out), sequence_id_(sequence_id) {}

  // Track descriptors. `parent_uuid` 0: a top-level track.
  Status ProcessTrack(uint64_t uuid, int64_t pid, std::string_view name);
  Status ThreadTrack(uint64_t uuid, int64_t pid, int64_t tid, std::string_view name);
  Status NamedTrack(uint64_t uuid, uint64_t parent_uuid, std::string_view name);
  // A counter track; `bytes`: its values are bytes (CounterDescriptor.unit UNIT_SIZE_BYTES),
  // else no unit (the name says it).
  Status CounterTrack(uint64_t uuid, uint64_t parent_uuid, std::string_view name,
                      bool bytes = true);
  // Maps trace time `trace_ns` (BOOTTIME, the default trace clock) to UTC `realtime_ns`.
  Status ClockSnapshot(uint64_t trace_ns, uint64_t realtime_ns);
  Status Event(const TrackEventFields& event);
  // The same bytes as Event() of a kSliceEnd, without its general path (half of all packets).
  Status SliceEnd(uint64_t timestamp, uint64_t track_uuid);
  // A CPU sample as a PerfSample packet (Perfetto's callstack sampling: its flame graph and
  // sample views); `stack` innermost frame first, as SAMPLING_CALLCHAINS orders it. Function
  // names, modules (as mappings), frames and callstacks are interned.
  Status Sample(uint64_t timestamp, int64_t pid, int64_t tid, int64_t cpu,
                const std::vector<StackFrame>& stack);

  int64_t packets() const { return packets_; }

 private:
  static constexpr size_t kMaxInterned = 1 << 17;
  static constexpr size_t kRecent = 1024;  // 2^10 (Intern's slot), above most reports' names
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  struct Interned {
    std::unordered_map<std::string, uint64_t, StringHash, std::equal_to<>> ids;
    uint64_t next = 1;
    // Recent lookups by the text's address: names and argument keys come back in the same
    // storage (the source's string cache, literals), so most lookups compare the text with its
    // entry instead of hashing it.
    struct Recent {
      const char* data = nullptr;
      const std::string* text = nullptr;  // the key in `ids`
      uint64_t iid = 0;
    };
    std::array<Recent, kRecent> recent{};
  };
  // The iid of `text` in `table`; appends an entry to `pending` (InternedData field `field`)
  // when new.
  uint64_t Intern(Interned& table, std::string_view text, uint32_t field, std::string& pending);
  Status Descriptor(uint64_t uuid, uint64_t parent_uuid, std::string_view name, int64_t pid,
                    int64_t tid, int kind);
  // Whether `key` is new in `table`; `*iid` is its iid either way (the caller writes new entries).
  static bool NewEntry(Interned& table, std::string_view key, uint64_t* iid);
  // Resets every interning table when one reached kMaxInterned (SEQ_INCREMENTAL_STATE_CLEARED).
  void ResetInterningIfFull();
  // The sequence flags of a packet that uses interned data (clears `first_`/`cleared_`).
  uint32_t InterningFlags();

  OutputFile& out_;
  uint32_t sequence_id_;
  Interned names_, categories_, arg_names_;
  // CPU samples (proto_writer_samples.cc): function names and module paths (InternedString),
  // mappings by module path, frames by (function iid, mapping iid), callstacks by frame iids.
  Interned functions_, module_paths_, mappings_, frames_, callstacks_;
  bool cleared_ = false;  // the next interning packet must carry SEQ_INCREMENTAL_STATE_CLEARED
  bool first_ = true;
  std::string pending_;  // InternedData of the packet being built
  std::string event_;    // TrackEvent of the packet being built
  int64_t packets_ = 0;
};

}  // namespace gsys::export_
