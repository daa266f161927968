// SPDX-License-Identifier: Apache-2.0
// Stacks at traced calls: the native stack (unwind.h) and, when asked for, the Python stack
// (python_stack.h) of the calling thread, written as one kStackSite record keyed by what the
// call's own record carries (a CUDA correlation id, an OS-runtime call's start tick), after
// bringing the module map up to date. Called on the traced thread, never from a signal handler.
#pragma once

#include <cstdint>

#include "format/stack_records.h"

namespace gsys::capture {

// `skip`: innermost frames to leave out (the capture's own). `python`: also the Python stack.
void RecordStackSite(format::StackSite site, int64_t key, int skip, bool python);

// Test hook (GSYS_TEST_STACK_AT): the OS-runtime function whose recorded calls also get a
// stack site, so CI checks stack capture without CUDA. -1 when off.
extern int g_stack_test_osrt_function;
extern bool g_stack_test_python;

}  // namespace gsys::capture
