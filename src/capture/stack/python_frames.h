// SPDX-License-Identifier: Apache-2.0
// A read-only walker over a CPython thread state's frame chain that works without the GIL (as
// py-spy reads a process from outside, but in-process): it follows the interpreter's own
// structures at the offsets of python_layout.h, reads every byte through python_memory.h (a
// bad pointer costs the stack, never a fault), checks each object's type before using it,
// computes line numbers from the code object's line table and copies file and function names
// out of compact str objects. It calls nothing in the interpreter, so it is safe while another
// thread holds the GIL: the calling thread's frames cannot change or be freed under it while it
// is inside a C call. Thread-safe, no allocation or locks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "capture/stack/python_layout.h"

namespace gsys::capture {

// Addresses of the type objects the walker checks objects against (PyCode_Type, ...).
struct PythonTypes {
  uintptr_t code;
  uintptr_t str;
  uintptr_t bytes;
};

inline constexpr int kMaxPythonDepth = 128;
inline constexpr size_t kMaxPythonFileBytes = 512;
inline constexpr size_t kMaxPythonNameBytes = 256;
inline constexpr size_t kMaxLineTableBytes = size_t{1} << 20;  // longer tables: line -1 past it
inline constexpr size_t kLineChunkBytes = 512;

// Writes the frames of thread state `tstate`, innermost first, "FILE\x1fLINE\x1fFUNCTION\n"
// each (format/stack_records.h), whole frames only, at most `cap` bytes and kMaxPythonDepth
// frames. Returns the bytes written; 0 when the thread has no Python frames or anything read
// looks wrong, and then `*suspect` (when given) is set: unreadable memory or an object of the
// wrong type means the layout does not fit this interpreter.
size_t WalkPythonFrames(const PythonLayout& layout, const PythonTypes& types, uintptr_t tstate,
                        char* out, size_t cap, bool* suspect = nullptr);

// Line of the instruction at byte offset `addr` of a code object whose first line is
// `first_line`, from its 3.10 co_linetable (pairs of byte delta, signed line delta; -128: no
// line) or, for 3.11+, its location table. -1 when the table has no line for it.
int LineFrom310Table(const uint8_t* table, size_t n, int first_line, int64_t addr);
int LineFromLocationTable(const uint8_t* table, size_t n, int first_line, int64_t addr);

// The same, a chunk at a time: `c` carries the state from one chunk to the next (start it at
// {first_line, 0}); `last` says the table ends with this chunk. Returns the line (or -1) once
// known, else kLineNeedMore with `*used` set to the bytes of whole entries consumed (the rest
// must be passed again, in front of the next chunk).
struct LineCursor {
  int64_t line;  // line number reached so far (64-bit: garbage deltas cannot overflow it)
  int64_t pos;   // bytes of code covered so far
};
inline constexpr int kLineNeedMore = -2147483647;
int StepLine310Table(const uint8_t* chunk, size_t n, bool last, int64_t addr, LineCursor* c,
                     size_t* used);
int StepLocationTable(const uint8_t* chunk, size_t n, bool last, int64_t addr, LineCursor* c,
                      size_t* used);

}  // namespace gsys::capture
