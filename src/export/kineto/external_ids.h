// SPDX-License-Identifier: Apache-2.0
// Kineto's "External id": the id of the CPU op a CUDA call ran under, repeated on the call and on
// the GPU work it launched, so tools (HTA, TraceLens) tie kernels to the op that caused them. A
// gsys report's ops are NVTX push/pop ranges (torch's --pytorch=autograd-nvtx emits one per op).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"
#include "export/timeline/timeline_event.h"

namespace gsys::export_ {

// Numbers the NVTX push/pop ranges of one process 1, 2, ... in time order; a CUDA call gets the
// number of the innermost range open on its thread when it starts, and GPU work the number of the
// call with its correlation id. Feed every event of the process in the order TimelineSource gives
// (by start, enclosing first). Memory: one stack of open ranges per thread, and the correlation
// map in two generations of at most kGeneration entries (GPU work runs soon after its launch, so
// a launch older than two generations has had its GPU work). One thread.
class ExternalIds {
 public:
  static constexpr size_t kGeneration = size_t{1} << 20;

  // The External id of `e` (nullopt: none, e.g. a call outside every range); `correlation` is the
  // event's correlation id (0: none).
  std::optional<int64_t> Of(const TimelineEvent& e, int64_t correlation);

 private:
  struct Open {
    int64_t end;
    int64_t id;
  };
  std::unordered_map<int64_t, std::vector<Open>, SeededHash> stacks_;    // globalTid -> ranges
  std::unordered_map<int64_t, int64_t, SeededHash> current_, previous_;  // correlation -> id
  int64_t next_ = 1;
};

}  // namespace gsys::export_
