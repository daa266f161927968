// SPDX-License-Identifier: Apache-2.0
// TickClock: converts event ticks (format kClockSync, e.g. TSC) to CLOCK_MONOTONIC ns by
// piecewise-linear interpolation between the (ticks, ns) pairs of the whole session (every
// process on a host shares the TSC, so a short-lived process borrows its neighbours' pairs),
// extrapolating with the slope of the nearest segment.
//
// Threading: built once, then read-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

// Timestamps of raw streams are untrusted input: they are converted with the saturating
// helpers (found by fuzz/import_fuzzer).
#include "common/saturating.h"

namespace gsys::report {

class TickClock {
 public:
  void Add(int64_t ticks, int64_t ns) { pairs_.emplace_back(ticks, ns); }
  // Sorts the pairs; call after the last Add.
  void Finish();
  bool empty() const { return pairs_.empty(); }
  int64_t ToNs(int64_t ticks) const;

 private:
  std::vector<std::pair<int64_t, int64_t>> pairs_;
  mutable size_t hint_ = 0;  // segment of the previous lookup (events are mostly in order)
};

}  // namespace gsys::report
