// SPDX-License-Identifier: Apache-2.0
// gsys's messages after the target ends start on a line of their own. The target shares gsys's
// stderr and may leave its last line unterminated ("abc" with no newline); gsys's summary
// would then be glued to it ("abcgsys: generated ...").
#pragma once

namespace gsys::cli {

// Call once, after the target ended and before gsys's first message. What can be known is
// used; nothing is written when nothing can be known:
// - stderr a regular file (also when it is the target's): its last byte is read (through
//   /proc/self/fd/2 when fd 2 is write-only) and a '\n' written if it is not one.
// - stderr a terminal: the cursor column cannot be read without a query to the terminal, so
//   gsys writes as many spaces as the terminal is wide, then '\r', as zsh does before its
//   prompt: from column 0 they fill the line and '\r' returns to its start; from any later
//   column they wrap to a new line first. Nothing visible is added either way.
// - a pipe, socket or other device: nothing (what the target wrote last is not readable).
void BeginOwnStderrLine();

}  // namespace gsys::cli
