// SPDX-License-Identifier: Apache-2.0
// Which bytes are well-formed UTF-8 (Unicode 15, table 3-7), defined once: JSON exports must be
// valid UTF-8 (RFC 8259; strict parsers reject the whole file otherwise) and terminal text
// must not carry what a terminal decodes as something else. Header-only.
#pragma once

#include <cstddef>
#include <string_view>

namespace gsys {

// Length (1..4) of the well-formed UTF-8 sequence of 2 or more bytes at `s[i]`, 0 when the
// bytes there are not one: ASCII, stray continuation bytes, overlong forms, surrogates
// (ED A0..BF), lead bytes F5..FF and code points above U+10FFFF all give 0.
inline size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (n == 0 || c > 0xf4 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0) != 0x80) return 0;
  }
  if (n == 3 && c == 0xe0 && b(1) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && b(1) >= 0xa0) return 0;  // surrogates
  if (n == 4 && c == 0xf0 && b(1) < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xf4 && b(1) >= 0x90) return 0;  // above U+10FFFF
  return n;
}

}  // namespace gsys
