// SPDX-License-Identifier: Apache-2.0
// Where the frame walker (python_frames.h) finds things inside CPython's own structures, per
// minor version (3.10..3.13, 64-bit, default non-debug, GIL build). The offsets were printed by
// tools/python_layout_dump.c compiled against each version's internal headers
// (pyenv 3.10.13, 3.11.7, 3.12.1, 3.13.0; Debian's 3.11.2 prints the same as 3.11.7). On 3.13 the
// interpreter also publishes its own offsets in _PyRuntime (_Py_DebugOffsets); ApplyDebugOffsets
// takes them from there so a 3.13 patch release that moved a field is still read right.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

// Passive data: byte offsets (and read sizes) of the fields the walker reads.
struct PythonLayout {
  int minor;  // 10..13
  // Thread state: where the innermost frame hangs. 3.10: PyThreadState.frame (PyFrameObject*);
  // 3.11/3.12: PyThreadState.cframe, then _PyCFrame.current_frame; 3.13: .current_frame.
  uint32_t tstate_frame;
  uint32_t cframe_current;  // 3.11/3.12 only
  // Frame (3.10 PyFrameObject, 3.11+ _PyInterpreterFrame).
  uint32_t frame_back;   // f_back / previous
  uint32_t frame_code;   // f_code / f_executable
  uint32_t frame_instr;  // 3.10 f_lasti (int, code units); 3.11/3.12 prev_instr; 3.13 instr_ptr
  uint32_t frame_owner;  // owner byte (3.11+); 0 on 3.10
  uint32_t frame_read;   // bytes to copy per frame (covers every field above)
  // Code object.
  uint32_t co_filename;
  uint32_t co_name;  // co_qualname on 3.11+, co_name on 3.10 (which has no qualname)
  uint32_t co_linetable;
  uint32_t co_firstlineno;     // int
  uint32_t co_firsttraceable;  // int, 3.11+ (0 on 3.10)
  uint32_t co_code;            // co_code_adaptive: the bytecode, inline (3.11+; 0 on 3.10)
  uint32_t code_read;          // bytes to copy per code object
  // str (PyASCIIObject / PyCompactUnicodeObject) and bytes objects.
  uint32_t str_length;
  uint32_t str_state;
  uint32_t str_ascii_data;    // sizeof(PyASCIIObject): where compact ASCII text starts
  uint32_t str_compact_data;  // sizeof(PyCompactUnicodeObject): other compact strings
  uint32_t bytes_size;
  uint32_t bytes_data;
};

// Frame owner values (pycore_frame.h, 3.11+).
inline constexpr uint8_t kFrameOwnedByGenerator = 1;
inline constexpr uint8_t kFrameOwnedByCStack = 3;  // 3.12+: shim frames of C entry points

// The layout of CPython 3.`minor`, or nullptr when the walker does not know that version.
const PythonLayout* PythonLayoutFor(int major, int minor);

// 3.13: overwrites `layout`'s fields with the interpreter's own _Py_DebugOffsets, read from the
// first `n` bytes of _PyRuntime (`runtime`). Returns false (layout untouched) when the cookie,
// version or build flavor do not match, or an offset is out of range.
bool ApplyDebugOffsets(const uint8_t* runtime, size_t n, PythonLayout* layout);

// Bytes of _PyRuntime that ApplyDebugOffsets looks at.
inline constexpr size_t kDebugOffsetsBytes = 584;

}  // namespace gsys::capture
