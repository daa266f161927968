// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/python_capi_stack.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>

namespace gsys::capture {
namespace {

template <typename F>
bool Sym(F* slot, const char* name) {
  *slot = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
  return *slot != nullptr;
}

// Copies the UTF-8 text of `obj`'s str attribute `attr` into out; returns bytes.
size_t AttrText(const CApiStack& api, void* obj, const char* attr, char* out, size_t cap) {
  void* v = api.get_attr(obj, attr);
  if (v == nullptr) return 0;
  const char* s = api.utf8(v);
  size_t n = 0;
  if (s != nullptr) {
    n = std::strlen(s);
    if (n > cap) n = cap;
    std::memcpy(out, s, n);
  }
  api.dec_ref(v);
  return n;
}

}  // namespace

bool ResolveCApiStack(CApiStack* api) {
  CApiStack a;
  bool ok = Sym(&a.tstate_frame, "PyThreadState_GetFrame") &&
            Sym(&a.frame_back, "PyFrame_GetBack") && Sym(&a.frame_code, "PyFrame_GetCode") &&
            Sym(&a.frame_line, "PyFrame_GetLineNumber") &&
            Sym(&a.get_attr, "PyObject_GetAttrString") && Sym(&a.utf8, "PyUnicode_AsUTF8") &&
            Sym(&a.dec_ref, "Py_DecRef") && Sym(&a.err_fetch, "PyErr_Fetch") &&
            Sym(&a.err_restore, "PyErr_Restore");
  if (!ok) return false;
  // co_qualname arrived with 3.11, as did PyCode_Addr2Location (a cheap version probe).
  a.qualname = dlsym(RTLD_DEFAULT, "PyCode_Addr2Location") != nullptr;
  *api = a;
  return true;
}

size_t CaptureCApiStack(const CApiStack& api, void* tstate, char* out, size_t cap) {
  void *type = nullptr, *value = nullptr, *tb = nullptr;
  api.err_fetch(&type, &value, &tb);  // attribute lookups must not see a pending error
  size_t used = 0;
  void* frame = api.tstate_frame(tstate);  // new reference (or NULL)
  for (int depth = 0; frame != nullptr && depth < 128; ++depth) {
    char line[1024];
    size_t n = 0;
    void* code = api.frame_code(frame);
    if (code != nullptr) {
      n += AttrText(api, code, "co_filename", line, 600);
      n += static_cast<size_t>(
          std::snprintf(line + n, sizeof(line) - n, "\x1f%d\x1f", api.frame_line(frame)));
      n += AttrText(api, code, api.qualname ? "co_qualname" : "co_name", line + n,
                    sizeof(line) - n - 1);
      line[n++] = '\n';
      api.dec_ref(code);
    }
    if (used + n > cap) break;
    std::memcpy(out + used, line, n);
    used += n;
    void* back = api.frame_back(frame);
    api.dec_ref(frame);
    frame = back;
  }
  if (frame != nullptr) api.dec_ref(frame);
  api.err_restore(type, value, tb);
  return used;
}

}  // namespace gsys::capture
