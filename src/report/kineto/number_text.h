// SPDX-License-Identifier: Apache-2.0
// Exact conversions of JSON number text (RapidJSON hands numbers over as text, see
// trace_handler.h). Kineto writes `ts` and `dur` as microseconds with nanosecond decimals
// ("5345072582472.205"); a double cannot hold an epoch-based value to the nanosecond, so they are
// converted digit by digit. Anything that does not fit in int64 is refused (nullopt), never
// wrapped.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gsys::report::kineto {

// "123", "-7": the integer; nullopt for fractions, exponents or out-of-range values.
std::optional<int64_t> ParseIntText(std::string_view text);
// Microseconds text ("12.3456", "-3", "1.5e3") -> nanoseconds, digits past the third decimal
// truncated toward zero. nullopt when it is not a number or the result is out of int64 range.
std::optional<int64_t> MicrosTextToNanos(std::string_view text);

}  // namespace gsys::report::kineto
