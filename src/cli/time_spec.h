// SPDX-License-Identifier: Apache-2.0
// Parsing of nsys time values and windows: "1s2ms3us4ns", "-5e3", "1.5ms", "[start]/[end]".
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace gsys::cli {

// One time value in ns. Units ns nsec us usec ms msec s sec m min h hour may be combined
// ("1s2ms"); a bare number is ns; negatives and e-notation are allowed.
Result<int64_t> ParseTimeValue(std::string_view text);

struct TimeWindowSpec {
  int64_t start = INT64_MIN;
  int64_t end = INT64_MAX;
};
// "[start]/[end]"; a missing side is unbounded.
Result<TimeWindowSpec> ParseTimeWindow(std::string_view text);

}  // namespace gsys::cli
