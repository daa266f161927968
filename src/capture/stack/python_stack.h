// SPDX-License-Identifier: Apache-2.0
// The Python stack of the calling thread, read in-process. Two ways, both resolved with
// dlsym(RTLD_DEFAULT) the first time a stack is asked for:
//  * the frame walker (python_frames.h): finds this thread's PyThreadState without the GIL
//    (PyGILState_GetThisThreadState reads a thread-specific key) and reads the interpreter's
//    structures directly at per-version offsets (CPython 3.10..3.13). Works whether or not the
//    thread holds the GIL, which matters because PyTorch releases it before launching kernels.
//  * CPython's public frame API (PyThreadState_GetFrame, PyFrame_GetBack/GetLineNumber, 3.9+):
//    only when the thread holds the GIL; used where the walker does not know the version or
//    gave up.
// Either way only the calling thread's own state is read. Up to 3.11 the interpreter's
// "current" thread state is the GIL holder's, whichever thread that is, so a thread holds the
// GIL only when that state is its own (PyGILState_GetThisThreadState); from 3.12 on it is
// thread-local.
#pragma once

#include <cstddef>

namespace gsys::capture {

// Writes the stack innermost first, one frame per line, "FILE\x1fLINE\x1fFUNCTION\n"
// (format/stack_records.h), at most `cap` bytes (whole frames only). Returns the bytes
// written; 0 when the process has no CPython or this thread has no Python frames.
size_t CapturePythonStack(char* out, size_t cap);

// Why CapturePythonStack always returns 0 in this process, or nullptr when it can work.
const char* PythonStackUnavailable();

// Which way to read the stack (tests and benchmarks pick one; the capture uses kAuto).
enum class PythonStackMethod { kAuto, kWalker, kCApi };

// CapturePythonStack through `method` only (kAuto: the walker, else the C API with the GIL).
size_t CapturePythonStackWith(PythonStackMethod method, char* out, size_t cap);

// Why the walker is off in this process (then only GIL holders get stacks), or nullptr.
const char* PythonWalkerUnavailable();

// True when the walker took its offsets from the interpreter's _Py_DebugOffsets (3.13+)
// rather than from its own table.
bool PythonWalkerUsesDebugOffsets();

}  // namespace gsys::capture
