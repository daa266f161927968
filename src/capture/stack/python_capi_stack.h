// SPDX-License-Identifier: Apache-2.0
// The Python stack through CPython's public frame API (3.9+: PyThreadState_GetFrame,
// PyFrame_GetBack/GetCode/GetLineNumber, attribute lookups of co_filename and co_qualname).
// Calls into the interpreter, so only for a thread that holds the GIL; no per-version layouts.
#pragma once

#include <cstddef>

namespace gsys::capture {

// The API functions, resolved with dlsym(RTLD_DEFAULT).
struct CApiStack {
  void* (*tstate_frame)(void*) = nullptr;
  void* (*frame_back)(void*) = nullptr;
  void* (*frame_code)(void*) = nullptr;
  int (*frame_line)(void*) = nullptr;
  void* (*get_attr)(void*, const char*) = nullptr;
  const char* (*utf8)(void*) = nullptr;
  void (*dec_ref)(void*) = nullptr;
  void (*err_fetch)(void**, void**, void**) = nullptr;
  void (*err_restore)(void*, void*, void*) = nullptr;
  bool qualname = false;  // co_qualname exists (3.11+)
};

// Fills `api`; false when this process's CPython lacks one of the functions.
bool ResolveCApiStack(CApiStack* api);

// The stack of `tstate`, which must be the calling thread's and hold the GIL, in
// CapturePythonStack's format (python_stack.h).
size_t CaptureCApiStack(const CApiStack& api, void* tstate, char* out, size_t cap);

}  // namespace gsys::capture
