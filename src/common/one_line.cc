// SPDX-License-Identifier: Apache-2.0
#include "common/one_line.h"

#include <cstdint>

#include "common/utf8_valid.h"

namespace gsys {
namespace {

std::string Hex(unsigned char c) {
  static const char kDigits[] = "0123456789abcdef";
  return std::string("\\x") + kDigits[c >> 4] + kDigits[c & 15];
}

std::string Escape(unsigned char c) {
  switch (c) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case 0x1b:
      return "\\e";
    default:
      return Hex(c);
  }
}

// common/utf8_valid.h's sequence, except C1 controls (U+0080..U+009F), escaped like C0 ones.
size_t Utf8Length(std::string_view s, size_t i) {
  size_t n = Utf8SequenceLength(s, i);
  if (n == 2 && static_cast<unsigned char>(s[i]) == 0xc2 &&
      static_cast<unsigned char>(s[i + 1]) < 0xa0) {
    return 0;
  }
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
