// SPDX-License-Identifier: Apache-2.0
// Integer arithmetic that saturates at INT64_MIN/INT64_MAX instead of overflowing. Reports are
// untrusted input: a damaged or crafted one may hold any 64-bit timestamp (a kernel from
// INT64_MIN to INT64_MAX), and `end - start` on such values is signed overflow, undefined
// behaviour, and in loops bounded by a span it was a hang (`gsys summary`, issue 17, item 7).
// Use these for every time span and offset computed from report values.
#pragma once

#include <cstdint>

namespace gsys {

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

// `v` rounded toward zero and clamped to int64; NaN gives 0 (a plain cast of an out-of-range
// double is undefined behaviour).
inline int64_t SaturatingFromDouble(double v) {
  if (!(v == v)) return 0;
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// The ceiling of `a / b` for a >= 0, b > 0, without the overflow of (a + b - 1) / b.
inline int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace gsys
