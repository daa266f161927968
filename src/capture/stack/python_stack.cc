// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/python_stack.h"

#include <dlfcn.h>
#include <sched.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "capture/stack/python_capi_stack.h"
#include "capture/stack/python_frames.h"
#include "capture/stack/python_layout.h"
#include "capture/stack/python_memory.h"

namespace gsys::capture {
namespace {

using PyObj = void;

struct Walker {
  PythonLayout layout{};
  PythonTypes types{};
};

int (*g_is_initialized)() = nullptr;
// This thread's thread state, GIL or not (a thread-specific key; NULL for threads Python never
// saw).
PyObj* (*g_this_tstate)() = nullptr;
// The "current" thread state. Up to 3.11 it is process-wide: the GIL holder's, whichever thread
// that is. From 3.12 on it is thread-local: this thread's, NULL unless it holds the GIL.
PyObj* (*g_tstate_current)() = nullptr;
bool g_current_is_thread_local = false;
CApiStack g_capi;
bool g_capi_ok = false;
Walker g_walker;
std::atomic<bool> g_walker_ok{false};  // cleared for good when a walk finds unexpected data
const char* g_why = nullptr;
std::atomic<const char*> g_walker_why{nullptr};
bool g_debug_offsets = false;
std::atomic<int> g_state{0};  // 0 unresolved, 1 resolving, 2 usable, 3 unavailable

template <typename F>
bool Sym(F* slot, const char* name) {
  *slot = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
  return *slot != nullptr;
}

// "3.12.1 (main, ...)" -> 3, 12. Py_Version (3.11+) is the same as a hex number.
bool PythonVersion(int* major, int* minor) {
  const unsigned long* hex = nullptr;
  if (Sym(&hex, "Py_Version")) {
    *major = static_cast<int>((*hex >> 24) & 0xFF);
    *minor = static_cast<int>((*hex >> 16) & 0xFF);
    return true;
  }
  const char* (*get_version)() = nullptr;
  if (!Sym(&get_version, "Py_GetVersion")) return false;
  const char* v = get_version();
  char* end = nullptr;
  *major = static_cast<int>(std::strtol(v, &end, 10));
  if (end == v || *end != '.') return false;
  const char* m = end + 1;
  *minor = static_cast<int>(std::strtol(m, &end, 10));
  return end != m;
}

const char* ResolveWalker() {
  Walker w;
  int major = 0, minor = 0;
  if (!PythonVersion(&major, &minor)) return "cannot tell the CPython version";
  const PythonLayout* layout = PythonLayoutFor(major, minor);
  if (layout == nullptr) return "the frame walker knows CPython 3.10-3.13 only";
  w.layout = *layout;
  void* code = dlsym(RTLD_DEFAULT, "PyCode_Type");
  void* str = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
  void* bytes = dlsym(RTLD_DEFAULT, "PyBytes_Type");
  if (code == nullptr || str == nullptr || bytes == nullptr)
    return "CPython type objects not found";
  w.types = {reinterpret_cast<uintptr_t>(code), reinterpret_cast<uintptr_t>(str),
             reinterpret_cast<uintptr_t>(bytes)};
  if (!SafeReadAvailable()) return "process_vm_readv is refused here (seccomp?)";
  if (minor >= 13) {
    // The interpreter's own offsets win over the table; a runtime that publishes offsets the
    // walker cannot use (e.g. a free-threaded build) turns the walker off.
    void* runtime = dlsym(RTLD_DEFAULT, "_PyRuntime");
    uint8_t head[kDebugOffsetsBytes];
    if (runtime != nullptr && SafeRead(reinterpret_cast<uintptr_t>(runtime), head, sizeof head)) {
      if (!ApplyDebugOffsets(head, sizeof head, &w.layout)) {
        return "_PyRuntime's debug offsets are not those of a 3.13 GIL build";
      }
      g_debug_offsets = true;
    }
  }
  g_walker = w;
  return nullptr;
}

void Resolve() {
  if (!Sym(&g_is_initialized, "Py_IsInitialized")) {
    g_why = "no CPython in this process (Py_IsInitialized not found)";
    g_state.store(3, std::memory_order_release);
    return;
  }
  if (!Sym(&g_this_tstate, "PyGILState_GetThisThreadState")) {
    g_why = "PyGILState_GetThisThreadState not found";
    g_state.store(3, std::memory_order_release);
    return;
  }
  // 3.13: PyThreadState_GetUnchecked; up to 3.12: _PyThreadState_UncheckedGet.
  if (!Sym(&g_tstate_current, "PyThreadState_GetUnchecked")) {
    Sym(&g_tstate_current, "_PyThreadState_UncheckedGet");
  }
  int major = 0, minor = 0;
  g_current_is_thread_local = PythonVersion(&major, &minor) && (major > 3 || minor >= 12);
  g_capi_ok = g_tstate_current != nullptr && ResolveCApiStack(&g_capi);
  const char* walker_why = ResolveWalker();
  g_walker_why.store(walker_why, std::memory_order_relaxed);
  g_walker_ok.store(walker_why == nullptr, std::memory_order_relaxed);
  if (!g_capi_ok && walker_why != nullptr) {
    g_why = walker_why;
    g_state.store(3, std::memory_order_release);
    return;
  }
  g_state.store(2, std::memory_order_release);
}

bool Ready() {
  int s = g_state.load(std::memory_order_acquire);
  if (s == 0) {
    int expected = 0;
    if (g_state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) Resolve();
    s = g_state.load(std::memory_order_acquire);
  }
  // Another thread is resolving (a few dlsym calls): wait for it, a bounded number of times,
  // rather than lose this thread's first stacks.
  for (int i = 0; s == 1 && i < 100000; ++i) {
    sched_yield();
    s = g_state.load(std::memory_order_acquire);
  }
  return s == 2;
}

// Walks that met memory or objects that are not what the layout says (kMaxSuspectWalks of
// them) turn the walker off for the rest of the process: a layout that does not fit this build
// (an unknown patch release, a custom build) would keep producing garbage pointers, and each
// one is a risk (python_memory.h). GIL holders still get stacks through the C API.
constexpr int kMaxSuspectWalks = 3;
std::atomic<int> g_suspect_walks{0};

// This thread's state (NULL when Python never saw the thread), and whether it holds the GIL.
// Never another thread's: up to 3.11 the "current" state belongs to whichever thread holds the
// GIL, and reading a running thread's frames would race with it.
PyObj* ThisThreadState(bool* holds_gil) {
  PyObj* mine = g_this_tstate();
  PyObj* current = g_tstate_current != nullptr ? g_tstate_current() : nullptr;
  if (g_current_is_thread_local) {
    *holds_gil = current != nullptr;
    return current != nullptr ? current : mine;  // current: the sub-interpreter it runs in
  }
  *holds_gil = current != nullptr && current == mine;
  return mine;
}

size_t Walk(PyObj* tstate, char* out, size_t cap) {
  bool suspect = false;
  size_t n = WalkPythonFrames(g_walker.layout, g_walker.types, reinterpret_cast<uintptr_t>(tstate),
                              out, cap, &suspect);
  if (suspect && g_suspect_walks.fetch_add(1, std::memory_order_relaxed) + 1 >= kMaxSuspectWalks) {
    g_walker_why.store("the frame walker met unexpected interpreter data and turned itself off",
                       std::memory_order_relaxed);
    g_walker_ok.store(false, std::memory_order_relaxed);
  }
  return n;
}

}  // namespace

const char* PythonStackUnavailable() { return Ready() ? nullptr : g_why; }

bool PythonWalkerUsesDebugOffsets() { return Ready() && g_debug_offsets; }

const char* PythonWalkerUnavailable() {
  if (!Ready()) return g_why;
  return g_walker_why.load(std::memory_order_relaxed);
}

size_t CapturePythonStackWith(PythonStackMethod method, char* out, size_t cap) {
  if (!Ready() || g_is_initialized() == 0) return 0;
  bool holds_gil = false;
  PyObj* tstate = ThisThreadState(&holds_gil);
  if (tstate == nullptr) return 0;
  size_t n = 0;
  if (g_walker_ok.load(std::memory_order_relaxed) && method != PythonStackMethod::kCApi) {
    n = Walk(tstate, out, cap);
  }
  if (n == 0 && holds_gil && g_capi_ok && method != PythonStackMethod::kWalker) {
    n = CaptureCApiStack(g_capi, tstate, out, cap);
  }
  return n;
}

size_t CapturePythonStack(char* out, size_t cap) {
  return CapturePythonStackWith(PythonStackMethod::kAuto, out, cap);
}

}  // namespace gsys::capture
