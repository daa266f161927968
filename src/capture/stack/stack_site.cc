// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/stack_site.h"

#include "capture/sink/sink.h"
#include "capture/stack/module_map.h"
#include "capture/stack/python_stack.h"
#include "capture/stack/unwind.h"

namespace gsys::capture {

int g_stack_test_osrt_function = -1;
bool g_stack_test_python = false;

void RecordStackSite(format::StackSite site, int64_t key, int skip, bool python) {
  ++t_thread.guard;
  EmitModuleMapIfChanged();
  struct {
    uint64_t frames[format::kMaxStackFrames];
    char python[format::kMaxPythonStackBytes];
  } buf;
  int n = UnwindStack(buf.frames, static_cast<int>(format::kMaxStackFrames), skip + 1);
  size_t py = python ? CapturePythonStack(buf.python, sizeof(buf.python)) : 0;
  // Frames and Python text travel as one trailing blob: move the text up behind the frames.
  char* blob = reinterpret_cast<char*>(buf.frames);
  size_t native_bytes = static_cast<size_t>(n) * sizeof(uint64_t);
  if (py != 0) __builtin_memmove(blob + native_bytes, buf.python, py);
  format::StackSiteBody b{key, static_cast<uint32_t>(site), static_cast<uint16_t>(n),
                          0,   static_cast<uint32_t>(py),   0};
  EmitRecord(format::kStackSite, b, blob, static_cast<uint32_t>(native_bytes + py));
  --t_thread.guard;
}

}  // namespace gsys::capture
