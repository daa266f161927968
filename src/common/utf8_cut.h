// SPDX-License-Identifier: Apache-2.0
// Cutting a string at a byte cap without splitting a UTF-8 character. Header-only: the injected
// library uses it too (capture/nvtx/nvtx_text.h), and it links nothing of common's.
#pragma once

#include <cstddef>

namespace gsys {

// Bytes of `s` (length `len`) to keep under a cap of `cap` bytes: `len` when it fits, else the
// longest prefix of at most `cap` bytes that does not end inside a UTF-8 multi-byte sequence.
// A cut at `cap` splits a character only when byte `cap` continues one that starts at most 3
// bytes before it and does not end before `cap`. Invalid input (stray continuation bytes) is
// cut at `cap` as is: there is no character to keep whole.
inline size_t Utf8CutLength(const char* s, size_t len, size_t cap) {
  if (len <= cap) return len;
  const auto* u = reinterpret_cast<const unsigned char*>(s);
  auto continuation = [](unsigned char c) { return (c & 0xC0) == 0x80; };
  // Length of the sequence a lead byte starts (1 for ASCII and for bytes that start nothing).
  auto sequence_length = [](unsigned char c) -> size_t {
    if (c >= 0xF0 && c <= 0xF7) return 4;
    if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
    if (c >= 0xC0) return 2;
    return 1;
  };
  if (!continuation(u[cap])) return cap;
  for (size_t back = 1; back <= 3 && back <= cap; ++back) {
    size_t start = cap - back;
    if (continuation(u[start])) continue;
    return start + sequence_length(u[start]) > cap ? start : cap;
  }
  return cap;
}

}  // namespace gsys
