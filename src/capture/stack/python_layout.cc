// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/python_layout.h"

#include <cstring>

namespace gsys::capture {
namespace {

// Printed by tools/python_layout_dump.c (see python_layout.h).
constexpr PythonLayout kLayouts[] = {
    // 3.10: PyFrameObject chain from PyThreadState.frame; co_linetable in the 3.10 format.
    {.minor = 10,
     .tstate_frame = 24,
     .cframe_current = 0,
     .frame_back = 24,
     .frame_code = 32,
     .frame_instr = 96,
     .frame_owner = 0,
     .frame_read = 100,
     .co_filename = 104,
     .co_name = 112,
     .co_linetable = 120,
     .co_firstlineno = 40,
     .co_firsttraceable = 0,
     .co_code = 0,
     .code_read = 128,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_data = 48,
     .str_compact_data = 72,
     .bytes_size = 16,
     .bytes_data = 32},
    // 3.11: _PyInterpreterFrame chain from tstate->cframe->current_frame.
    {.minor = 11,
     .tstate_frame = 56,
     .cframe_current = 8,
     .frame_back = 48,
     .frame_code = 32,
     .frame_instr = 56,
     .frame_owner = 69,
     .frame_read = 72,
     .co_filename = 112,
     .co_name = 128,
     .co_linetable = 136,
     .co_firstlineno = 72,
     .co_firsttraceable = 168,
     .co_code = 184,
     .code_read = 184,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_data = 48,
     .str_compact_data = 72,
     .bytes_size = 16,
     .bytes_data = 32},
    {.minor = 12,
     .tstate_frame = 56,
     .cframe_current = 0,
     .frame_back = 8,
     .frame_code = 0,
     .frame_instr = 56,
     .frame_owner = 70,
     .frame_read = 72,
     .co_filename = 112,
     .co_name = 128,
     .co_linetable = 136,
     .co_firstlineno = 68,
     .co_firsttraceable = 176,
     .co_code = 192,
     .code_read = 192,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_data = 40,
     .str_compact_data = 56,
     .bytes_size = 16,
     .bytes_data = 32},
    // 3.13: tstate->current_frame; f_executable; instr_ptr (the current instruction).
    {.minor = 13,
     .tstate_frame = 72,
     .cframe_current = 0,
     .frame_back = 8,
     .frame_code = 0,
     .frame_instr = 56,
     .frame_owner = 70,
     .frame_read = 72,
     .co_filename = 112,
     .co_name = 128,
     .co_linetable = 136,
     .co_firstlineno = 68,
     .co_firsttraceable = 184,
     .co_code = 200,
     .code_read = 200,
     .str_length = 16,
     .str_state = 32,
     .str_ascii_data = 40,
     .str_compact_data = 56,
     .bytes_size = 16,
     .bytes_data = 32},
};

// struct _Py_DebugOffsets of 3.13 (pycore_runtime.h), as byte positions of its uint64 fields.
enum DebugField : size_t {
  kVersion = 8,
  kFreeThreaded = 16,
  kTstateCurrentFrame = 184,
  kFramePrevious = 232,
  kFrameExecutable = 240,
  kFrameInstrPtr = 248,
  kFrameOwner = 264,
  kCodeFilename = 280,
  kCodeQualname = 296,
  kCodeLinetable = 304,
  kCodeFirstlineno = 312,
  kCodeAdaptive = 344,
  kBytesSize = 520,
  kBytesData = 528,
  kStrState = 544,
  kStrLength = 552,
  kStrAsciiSize = 560,
  kDebugEnd = 584,
};
static_assert(kDebugEnd == kDebugOffsetsBytes);

uint64_t U64(const uint8_t* p, size_t at) {
  uint64_t v;
  std::memcpy(&v, p + at, sizeof v);
  return v;
}

}  // namespace

const PythonLayout* PythonLayoutFor(int major, int minor) {
  if (major != 3) return nullptr;
  for (const PythonLayout& l : kLayouts) {
    if (l.minor == minor) return &l;
  }
  return nullptr;
}

bool ApplyDebugOffsets(const uint8_t* runtime, size_t n, PythonLayout* layout) {
  if (n < kDebugEnd || std::memcmp(runtime, "xdebugpy", 8) != 0) return false;
  uint64_t version = U64(runtime, kVersion);  // PY_VERSION_HEX
  if ((version >> 16) != 0x030D || U64(runtime, kFreeThreaded) != 0) return false;
  uint64_t v[] = {U64(runtime, kTstateCurrentFrame), U64(runtime, kFramePrevious),
                  U64(runtime, kFrameExecutable),    U64(runtime, kFrameInstrPtr),
                  U64(runtime, kFrameOwner),         U64(runtime, kCodeFilename),
                  U64(runtime, kCodeQualname),       U64(runtime, kCodeLinetable),
                  U64(runtime, kCodeFirstlineno),    U64(runtime, kCodeAdaptive),
                  U64(runtime, kBytesSize),          U64(runtime, kBytesData),
                  U64(runtime, kStrState),           U64(runtime, kStrLength),
                  U64(runtime, kStrAsciiSize)};
  for (uint64_t x : v) {
    if (x > 4096) return false;  // no field of these structures lies that far in
  }
  PythonLayout l = *layout;
  l.tstate_frame = static_cast<uint32_t>(v[0]);
  l.frame_back = static_cast<uint32_t>(v[1]);
  l.frame_code = static_cast<uint32_t>(v[2]);
  l.frame_instr = static_cast<uint32_t>(v[3]);
  l.frame_owner = static_cast<uint32_t>(v[4]);
  l.co_filename = static_cast<uint32_t>(v[5]);
  l.co_name = static_cast<uint32_t>(v[6]);
  l.co_linetable = static_cast<uint32_t>(v[7]);
  l.co_firstlineno = static_cast<uint32_t>(v[8]);
  l.co_code = static_cast<uint32_t>(v[9]);
  l.bytes_size = static_cast<uint32_t>(v[10]);
  l.bytes_data = static_cast<uint32_t>(v[11]);
  l.str_state = static_cast<uint32_t>(v[12]);
  l.str_length = static_cast<uint32_t>(v[13]);
  l.str_ascii_data = static_cast<uint32_t>(v[14]);
  // Every field must sit inside what the walker copies; a frame's fields are pointers (8
  // bytes) except owner (1); a code object's first line number is an int.
  uint32_t frame_end = l.frame_back + 8;
  if (l.frame_code + 8 > frame_end) frame_end = l.frame_code + 8;
  if (l.frame_instr + 8 > frame_end) frame_end = l.frame_instr + 8;
  if (l.frame_owner + 1 > frame_end) frame_end = l.frame_owner + 1;
  l.frame_read = frame_end;
  if (l.co_firsttraceable + 4 > l.co_code || l.co_filename + 8 > l.co_code ||
      l.co_name + 8 > l.co_code || l.co_linetable + 8 > l.co_code ||
      l.co_firstlineno + 4 > l.co_code) {
    return false;
  }
  l.code_read = l.co_code;
  // The non-ASCII compact header is the ASCII one plus utf8_length and utf8 (3.12+).
  l.str_compact_data = l.str_ascii_data + 16;
  *layout = l;
  return true;
}

}  // namespace gsys::capture
