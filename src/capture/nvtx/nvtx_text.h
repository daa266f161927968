// SPDX-License-Identifier: Apache-2.0
// NVTX strings on their way into records: the 4096-byte cap (format::kMaxTextBytes) applied on
// a UTF-8 character boundary, wide strings converted to UTF-8, and the count of strings cut
// (CounterId::kTruncatedText, the report's nvtx_strings_truncated).
//
// Threading: the cut and the conversion are pure; the counter is one process-wide atomic and
// a 24-byte record on the calling thread, paid only by a string that was cut.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/utf8_cut.h"

namespace gsys::capture {

// Bytes of the NUL-terminated `s` to keep under a cap of `cap` bytes: strlen(s) when it fits,
// else the longest prefix of at most `cap` bytes that does not end inside a UTF-8 multi-byte
// sequence. Reads at most cap + 1 bytes of `s`. `*cut` tells whether bytes were left out.
size_t NvtxTextLength(const char* s, size_t cap, bool* cut);

// The same boundary rule for a string of known length: gsys::Utf8CutLength (common/utf8_cut.h).
using gsys::Utf8CutLength;

// Converts the NUL-terminated wide string `in` to UTF-8 in `out` (room for `cap` bytes, the NUL
// included; cap >= 1), never splitting a character; code points that are not characters
// (surrogates, beyond U+10FFFF) become U+FFFD. Returns the bytes written without the NUL;
// `*cut` tells whether characters were left out.
size_t WideToUtf8(const wchar_t* in, char* out, size_t cap, bool* cut);

// Counts one string cut at the cap and emits the process's new total as a counter record.
void NvtxCountTruncation();
// A forked child counts its own cuts from 0 (counters are per process stream).
void NvtxTextForkChild();

}  // namespace gsys::capture
