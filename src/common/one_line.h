// SPDX-License-Identifier: Apache-2.0
// Text from outside (an HTTP server's error message, a file name another process chose) made
// safe to print as part of one log line: a terminal must not interpret it and a reader must
// not take part of it for a line of gsys's own (a forged "gsys: ... uploaded" after a CR/LF).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gsys {

// `text` as one printable line: C0 controls, DEL and the C1 controls (U+0080..U+009F) become
// escapes (\n, \r, \t, \e, \xHH), bytes that are not valid UTF-8 become \xHH; at most
// `max_bytes` bytes of output, cut at a character boundary and ended with "..." when cut.
std::string OneLine(std::string_view text, size_t max_bytes = 512);

}  // namespace gsys
