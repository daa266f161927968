// SPDX-License-Identifier: Apache-2.0
// The Python stack of the calling thread, read in-process through CPython's public C API
// (3.9+: PyThreadState_GetFrame, PyFrame_GetBack/GetCode/GetLineNumber), resolved with
// dlsym(RTLD_DEFAULT) the first time it is asked for. Only a thread that holds the GIL has a
// current thread state, and only then is a stack read: CUDA calls made from Python hold it,
// so calling into the interpreter there is allowed. No per-version struct layouts are used.
#pragma once

#include <cstddef>

namespace gsys::capture {

// Writes the stack innermost first, one frame per line, "FILE\x1fLINE\x1fFUNCTION\n"
// (format/stack_records.h), at most `cap` bytes (whole frames only). Returns the bytes
// written; 0 when the process has no CPython or this thread does not hold the GIL.
size_t CapturePythonStack(char* out, size_t cap);

// Why CapturePythonStack always returns 0 in this process, or nullptr when it can work.
const char* PythonStackUnavailable();

}  // namespace gsys::capture
