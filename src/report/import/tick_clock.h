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

namespace gsys::report {

// Timestamp arithmetic that saturates instead of overflowing: raw streams are untrusted input
// (a damaged or crafted stream may carry any 64-bit value), and signed overflow or an
// out-of-range double -> int64 conversion is undefined behaviour (found by fuzz/import_fuzzer).
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
inline int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN;
  return r;
}
inline int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}
inline int64_t SaturatingFromDouble(double v) {
  if (!(v == v)) return 0;  // NaN
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(v);
}

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
