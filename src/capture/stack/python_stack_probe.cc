// SPDX-License-Identifier: Apache-2.0
// Test library (not shipped): the Python stack capture as plain C functions, for
// tests/stacks/test_python_frames.py to call through ctypes. ctypes.PyDLL keeps the GIL during
// the call and ctypes.CDLL releases it, which gives both cases without a C extension.
#include <time.h>

#include <cstddef>
#include <cstdint>

#include "capture/stack/python_memory.h"
#include "capture/stack/python_stack.h"

namespace {

gsys::capture::PythonStackMethod Method(int m) {
  return m == 1   ? gsys::capture::PythonStackMethod::kWalker
         : m == 2 ? gsys::capture::PythonStackMethod::kCApi
                  : gsys::capture::PythonStackMethod::kAuto;
}

int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);  // CPU time: the machine may be shared
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

// method: 0 auto, 1 walker, 2 C API. Returns the bytes written to `out`.
extern "C" __attribute__((visibility("default"))) size_t gsys_probe_stack(int method, char* out,
                                                                          size_t cap) {
  return gsys::capture::CapturePythonStackWith(Method(method), out, cap);
}

// CPU nanoseconds of this thread per stack: the best of 5 rounds of `iters` captures each
// (after one warm-up capture), so that a busy machine inflates the figure less.
extern "C" __attribute__((visibility("default"))) double gsys_probe_ns_per_stack(int method,
                                                                                 int iters) {
  static char buf[4096];
  gsys::capture::CapturePythonStackWith(Method(method), buf, sizeof buf);
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    int64_t t0 = NowNs();
    for (int i = 0; i < iters; ++i) {
      gsys::capture::CapturePythonStackWith(Method(method), buf, sizeof buf);
    }
    double ns = static_cast<double>(NowNs() - t0) / (iters > 0 ? iters : 1);
    if (round == 0 || ns < best) best = ns;
  }
  return best;
}

extern "C" __attribute__((visibility("default"))) const char* gsys_probe_walker_unavailable() {
  return gsys::capture::PythonWalkerUnavailable();
}

extern "C" __attribute__((visibility("default"))) uint64_t gsys_probe_syscalls() {
  return gsys::capture::SafeReadSyscalls();
}

extern "C" __attribute__((visibility("default"))) void gsys_probe_forget_pages() {
  gsys::capture::SafeReadForgetAll();
}

extern "C" __attribute__((visibility("default"))) int gsys_probe_uses_debug_offsets() {
  return gsys::capture::PythonWalkerUsesDebugOffsets() ? 1 : 0;
}
