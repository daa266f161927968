// SPDX-License-Identifier: Apache-2.0
// OS-runtime capture: interposed libc/pthread functions (LD_PRELOAD) time the calls where a
// host thread waits and record those at or above --osrt-threshold.
//
// Rules every wrapper follows (CONTRIBUTING.md §3): the real function is resolved once with
// dlsym(RTLD_NEXT) and cached; a thread-local guard makes calls made by gsys itself (and calls
// nested inside another wrapped call) pass straight through; errno is preserved; the
// uncontended fast path of a lock costs one try-lock, with no clock read.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "capture/clock/clock.h"
#include "capture/sink/sink.h"
#include "capture/stack/stack_site.h"
#include "format/osrt_functions.h"

#define GSYS_EXPORT extern "C" __attribute__((visibility("default")))

namespace gsys::capture {

// Resolves `name` in the next object after this library; cached in `slot`.
void* ResolveReal(std::atomic<void*>* slot, const char* name);

extern std::atomic<bool> g_osrt_on;
extern int64_t g_osrt_threshold_ns;

// True when this call should be timed: tracing on and not inside gsys or another wrapper.
inline bool OsrtShouldTime() {
  return g_osrt_on.load(std::memory_order_relaxed) && t_thread.guard == 0 && RecordingOn();
}

// Marks the thread as inside a wrapper for the scope (nested wrapped calls pass through).
class OsrtScope {
 public:
  OsrtScope() : start_(NowTicks()) { ++t_thread.guard; }
  ~OsrtScope() { --t_thread.guard; }
  OsrtScope(const OsrtScope&) = delete;
  OsrtScope& operator=(const OsrtScope&) = delete;

  // Records the call if it took at least the threshold. Keeps errno.
  void Done(format::OsrtFunction fn, int64_t ret) {
    int64_t end = NowTicks();
    if (end - start_ < NsToTicks(g_osrt_threshold_ns) || !InWindow()) return;
    int saved = errno;
    format::OsrtCallBody body{start_, end, ret, static_cast<uint32_t>(fn), 0};
    EmitRecord(format::RecordKind::kOsrtCall, body);
    if (__builtin_expect(static_cast<int>(fn) == g_stack_test_osrt_function, 0)) {
      RecordStackSite(format::StackSite::kOsrt, start_, 0, g_stack_test_python);
    }
    errno = saved;
  }

 private:
  int64_t start_;
};

// Pre-exec work: flush this process's stream (`flush`: exec replaces the image) and repair
// `envp` so the new program is captured too. Returns the environment to pass on (maybe `envp`).
char* const* OsrtPrepareExec(char* const* envp, bool flush);

// The value `name` had in the environment at library init (GSYS_* and CUDA_INJECTION64_PATH
// only), or nullptr.
const char* CaptureEnvSnapshot(const char* name);

}  // namespace gsys::capture

// GSYS_REAL(fn): the real `fn`, typed like ours.
#define GSYS_REAL(fn)                                                                    \
  ([]() {                                                                                \
    static std::atomic<void*> slot{nullptr};                                             \
    void* p = slot.load(std::memory_order_relaxed);                                      \
    if (__builtin_expect(p == nullptr, 0)) p = ::gsys::capture::ResolveReal(&slot, #fn); \
    return reinterpret_cast<decltype(&::fn)>(p);                                         \
  }())
