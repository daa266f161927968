// SPDX-License-Identifier: Apache-2.0
#include "export/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "common/utf8_valid.h"

namespace gsys::export_ {
namespace {

// Whether `c` is copied as it is (printable ASCII other than '"' and '\\').
bool Plain(char c) {
  auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  for (size_t i = 0; i < text.size(); ++i) {
    // Copy the run of plain characters at once (names are mostly plain).
    size_t run = i;
    while (run < text.size() && Plain(text[run])) ++run;
    if (run > i) {
      out.append(text.data() + i, run - i);
      i = run;
      if (i == text.size()) break;
    }
    char c = text[i];
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      size_t n = Utf8SequenceLength(text, i);  // strict: JSON must be valid UTF-8
      if (n == 0) {
        out.append("\\ufffd");
      } else {
        out.append(text.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default:
        if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          out.append(buf);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void AppendInt(std::string& out, int64_t value) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, res.ptr);
}

void AppendMicros(std::string& out, int64_t ns) {
  // The magnitude as unsigned: -INT64_MIN does not fit in int64_t.
  uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  if (ns < 0) out.push_back('-');
  AppendInt(out, static_cast<int64_t>(mag / 1000));
  int64_t frac = static_cast<int64_t>(mag % 1000);
  char buf[5] = {'.', static_cast<char>('0' + frac / 100), static_cast<char>('0' + frac / 10 % 10),
                 static_cast<char>('0' + frac % 10), 0};
  out.append(buf, 4);
}

void AppendDouble(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out.append("null");
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, res.ptr);
}

}  // namespace gsys::export_
