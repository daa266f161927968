// SPDX-License-Identifier: Apache-2.0
// What the SAX handler (trace_handler.h) extracts from a Kineto trace: one TraceEvent per entry
// of `traceEvents` (only the fields gsys maps; the rest of `args` is skipped while parsing), the
// GPUs of `deviceProperties`, `distributedInfo`, and the other top-level scalars.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace gsys::report::kineto {

// A pid or tid: Kineto writes numbers, and strings for its own tracks ("Spans", "Traces").
struct TrackId {
  bool present = false;
  bool numeric = false;
  int64_t number = 0;
  std::string text;
};

// The collective metadata torch writes on NCCL kernels and record_param_comms ops.
struct CollectiveArgs {
  std::string name;  // "Collective name": allreduce, allgather, ...
  std::string dtype;
  std::optional<int64_t> in_nelems, out_nelems, group_size, rank_start, rank_stride;
  std::string in_split, out_split, pg_name, pg_desc, pg_ranks;
  bool present() const { return !name.empty(); }
};

struct EventArgs {
  std::optional<int64_t> external_id, correlation, device, context, stream, registers, shared_mem,
      bytes, event_id, sort_index;
  int64_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int grid_n = 0, block_n = 0;
  std::string sync_kind;  // cuda_sync_kind
  std::string copy_kind;  // "kind" (ROCm traces: "HtoD")
  std::string meta_name;  // M events: args.name
  std::string labels;     // M events: args.labels
  CollectiveArgs collective;
};

struct TraceEvent {
  char ph = 0;  // first character of "ph"
  std::string cat, name;
  TrackId pid, tid;
  std::optional<int64_t> ts_ns, dur_ns;  // microsecond text converted exactly (number_text.h)
  bool bad_field = false;                // a field gsys reads had the wrong type or range
  EventArgs args;

  void Clear() { *this = TraceEvent(); }
};

struct DeviceProperties {
  std::optional<int64_t> id;
  std::string name;
  std::map<std::string, int64_t> ints;  // totalGlobalMem, numSms, computeMajor, ...
};

struct DistributedInfo {
  std::optional<int64_t> rank, world_size, pg_count;
  std::string backend, nccl_version;
};

}  // namespace gsys::report::kineto
