// SPDX-License-Identifier: Apache-2.0
// Small JSON text helpers shared by the chrome and jsonlines exporters (appending to a buffer).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gsys::export_ {

// Appends `text` as a JSON string literal with quotes; invalid UTF-8 bytes become U+FFFD.
void AppendJsonString(std::string& out, std::string_view text);
// Appends a decimal integer.
void AppendInt(std::string& out, int64_t value);
// Appends `ns` as microseconds with three decimals ("1234.567"), Chrome trace-event units.
void AppendMicros(std::string& out, int64_t ns);
// Appends a double as JSON (finite values; NaN and infinities become null).
void AppendDouble(std::string& out, double value);

}  // namespace gsys::export_
