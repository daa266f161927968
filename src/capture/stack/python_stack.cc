// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/python_stack.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace gsys::capture {
namespace {

using PyObj = void;

struct PyApi {
  int (*is_initialized)() = nullptr;
  PyObj* (*tstate_current)() = nullptr;  // NULL unless this thread holds the GIL
  PyObj* (*tstate_frame)(PyObj*) = nullptr;
  PyObj* (*frame_back)(PyObj*) = nullptr;
  PyObj* (*frame_code)(PyObj*) = nullptr;
  int (*frame_line)(PyObj*) = nullptr;
  PyObj* (*get_attr)(PyObj*, const char*) = nullptr;
  const char* (*utf8)(PyObj*) = nullptr;
  void (*dec_ref)(PyObj*) = nullptr;
  void (*err_fetch)(PyObj**, PyObj**, PyObj**) = nullptr;
  void (*err_restore)(PyObj*, PyObj*, PyObj*) = nullptr;
  bool qualname = false;  // co_qualname exists (3.11+)
};

PyApi g_api;
std::atomic<int> g_state{0};  // 0 unresolved, 1 usable, 2 unavailable
const char* g_why = nullptr;

template <typename F>
bool Sym(F* slot, const char* name) {
  *slot = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
  return *slot != nullptr;
}

void Resolve() {
  PyApi a;
  if (!Sym(&a.is_initialized, "Py_IsInitialized")) {
    g_why = "no CPython in this process (Py_IsInitialized not found)";
    g_state.store(2);
    return;
  }
  // 3.13: PyThreadState_GetUnchecked; 3.10-3.12: _PyThreadState_UncheckedGet. Both return the
  // thread state current on this thread, NULL when it does not hold the GIL.
  if (!Sym(&a.tstate_current, "PyThreadState_GetUnchecked") &&
      !Sym(&a.tstate_current, "_PyThreadState_UncheckedGet")) {
    g_why = "this CPython exports no unchecked thread-state getter (needs 3.10-3.13)";
    g_state.store(2);
    return;
  }
  bool ok = Sym(&a.tstate_frame, "PyThreadState_GetFrame") &&
            Sym(&a.frame_back, "PyFrame_GetBack") && Sym(&a.frame_code, "PyFrame_GetCode") &&
            Sym(&a.frame_line, "PyFrame_GetLineNumber") &&
            Sym(&a.get_attr, "PyObject_GetAttrString") && Sym(&a.utf8, "PyUnicode_AsUTF8") &&
            Sym(&a.dec_ref, "Py_DecRef") && Sym(&a.err_fetch, "PyErr_Fetch") &&
            Sym(&a.err_restore, "PyErr_Restore");
  if (!ok) {
    g_why = "this CPython lacks the frame API gsys uses (needs 3.9+)";
    g_state.store(2);
    return;
  }
  // co_qualname arrived with 3.11, as did PyCode_Addr2Location (a cheap version probe).
  a.qualname = dlsym(RTLD_DEFAULT, "PyCode_Addr2Location") != nullptr;
  g_api = a;
  g_state.store(1);
}

bool Ready() {
  int s = g_state.load(std::memory_order_acquire);
  if (s == 0) {
    Resolve();
    s = g_state.load();
  }
  return s == 1;
}

// Appends `s` (as UTF-8 text of a str object's attribute) to out; returns bytes.
size_t AttrText(PyObj* obj, const char* attr, char* out, size_t cap) {
  PyObj* v = g_api.get_attr(obj, attr);
  if (v == nullptr) return 0;
  const char* s = g_api.utf8(v);
  size_t n = 0;
  if (s != nullptr) {
    n = std::strlen(s);
    if (n > cap) n = cap;
    std::memcpy(out, s, n);
  }
  g_api.dec_ref(v);
  return n;
}

}  // namespace

const char* PythonStackUnavailable() { return Ready() ? nullptr : g_why; }

size_t CapturePythonStack(char* out, size_t cap) {
  if (!Ready() || g_api.is_initialized() == 0) return 0;
  PyObj* tstate = g_api.tstate_current();
  if (tstate == nullptr) return 0;
  PyObj *type = nullptr, *value = nullptr, *tb = nullptr;
  g_api.err_fetch(&type, &value, &tb);  // attribute lookups must not see a pending error
  size_t used = 0;
  PyObj* frame = g_api.tstate_frame(tstate);  // new reference (or NULL)
  for (int depth = 0; frame != nullptr && depth < 128; ++depth) {
    char line[1024];
    size_t n = 0;
    PyObj* code = g_api.frame_code(frame);
    if (code != nullptr) {
      n += AttrText(code, "co_filename", line, 600);
      n += static_cast<size_t>(
          std::snprintf(line + n, sizeof(line) - n, "\x1f%d\x1f", g_api.frame_line(frame)));
      n += AttrText(code, g_api.qualname ? "co_qualname" : "co_name", line + n,
                    sizeof(line) - n - 1);
      line[n++] = '\n';
      g_api.dec_ref(code);
    }
    if (used + n > cap) break;
    std::memcpy(out + used, line, n);
    used += n;
    PyObj* back = g_api.frame_back(frame);
    g_api.dec_ref(frame);
    frame = back;
  }
  if (frame != nullptr) g_api.dec_ref(frame);
  g_api.err_restore(type, value, tb);
  return used;
}

}  // namespace gsys::capture
