// SPDX-License-Identifier: Apache-2.0
#include "common/one_line.h"

#include <cstdint>

namespace gsys {
namespace {

std::string Hex(unsigned char c) {
  static const char kDigits[] = "0123456789abcdef";
  return std::string("\\x") + kDigits[c >> 4] + kDigits[c & 15];
}

std::string Escape(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case 0x1b: return "\\e";
    default: return Hex(c);
  }
}

// Length of the valid UTF-8 sequence at `s[i]` (1..4), 0 when it is not one. Overlong forms,
// surrogates and code points above U+10FFFF are invalid.
size_t Utf8Length(std::string_view s, size_t i) {
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
  if (n == 2 && c == 0xc2 && b(1) < 0xa0) return 0;   // C1 controls: escaped like C0
  return n;
}

}  // namespace

std::string OneLine(std::string_view text, size_t max_bytes) {
  if (max_bytes < 8) max_bytes = 8;
  std::string out;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::string piece;
    size_t used = 1;
    if (c >= 0x20 && c < 0x7f) {
      piece.assign(1, static_cast<char>(c));
    } else if (c < 0x80) {
      piece = Escape(c);
    } else if (size_t n = Utf8Length(text, i); n != 0) {
      piece.assign(text.substr(i, n));
      used = n;
    } else {
      piece = Hex(c);
    }
    if (out.size() + piece.size() > max_bytes - 3) {
      out += "...";
      return out;
    }
    out += piece;
    i += used;
  }
  return out;
}

}  // namespace gsys
