// SPDX-License-Identifier: Apache-2.0
// SampleStacks: the call stack of one CPU sample (COMPOSITE_EVENTS.id -> SAMPLING_CALLCHAINS,
// innermost frame first) with function and module names resolved, for the timeline formats.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "export/timeline/timeline_event.h"
#include "report/db/database.h"

namespace gsys::export_ {

class SampleStacks {
 public:
  // Looks frames up by (id, stackDepth): nsys exports and current gsys reports have that primary
  // key. Reports written before gsys had it get a temporary indexed copy (`db`'s temp store), so
  // a lookup is never a scan of the whole table.
  static Result<std::unique_ptr<SampleStacks>> Open(report::Database& db);

  // The frames of sample `id`, innermost first; valid until the next call. Empty when the sample
  // has none (an unwinding failure).
  Result<const std::vector<StackFrame>*> Frames(int64_t id);

 private:
  explicit SampleStacks(report::Statement lookup) : lookup_(std::move(lookup)) {}
  report::Statement lookup_;
  std::vector<std::string> text_;  // function, module, function, module, ...
  std::vector<StackFrame> frames_;
};

}  // namespace gsys::export_
