// SPDX-License-Identifier: Apache-2.0
// Prints the CPython struct offsets python_layout.cc holds, for the interpreter whose headers it
// is compiled against (internal headers, hence Py_BUILD_CORE). Not built; run by hand per version:
//   gcc -I$PREFIX/include/python3.X tools/python_layout_dump.c -o dump && ./dump
#define Py_BUILD_CORE 1
#include <Python.h>
#include <stddef.h>
#include <stdio.h>
#if PY_VERSION_HEX >= 0x030B0000
#include "internal/pycore_code.h"
#include "internal/pycore_frame.h"
#endif
#include "internal/pycore_pystate.h"
#if PY_VERSION_HEX < 0x030B0000
#include "frameobject.h"
#endif
#define P(name, expr) printf("  %-28s %zu\n", name, (size_t)(expr))
int main(void) {
  printf("%s\n", PY_VERSION);
  P("tstate.interp", offsetof(PyThreadState, interp));
#if PY_VERSION_HEX < 0x030B0000
  P("tstate.frame", offsetof(PyThreadState, frame));
  P("frame.f_back", offsetof(PyFrameObject, f_back));
  P("frame.f_code", offsetof(PyFrameObject, f_code));
  P("frame.f_lasti", offsetof(PyFrameObject, f_lasti));
  P("code.co_linetable", offsetof(PyCodeObject, co_linetable));
#elif PY_VERSION_HEX < 0x030D0000
  P("tstate.cframe", offsetof(PyThreadState, cframe));
  P("cframe.current_frame", offsetof(_PyCFrame, current_frame));
  P("iframe.f_code", offsetof(_PyInterpreterFrame, f_code));
  P("iframe.previous", offsetof(_PyInterpreterFrame, previous));
  P("iframe.prev_instr", offsetof(_PyInterpreterFrame, prev_instr));
  P("iframe.owner", offsetof(_PyInterpreterFrame, owner));
  P("code.co_linetable", offsetof(PyCodeObject, co_linetable));
  P("code.co_qualname", offsetof(PyCodeObject, co_qualname));
  P("code._co_firsttraceable", offsetof(PyCodeObject, _co_firsttraceable));
  P("code.co_code_adaptive", offsetof(PyCodeObject, co_code_adaptive));
#else
  P("tstate.current_frame", offsetof(PyThreadState, current_frame));
  P("iframe.f_executable", offsetof(_PyInterpreterFrame, f_executable));
  P("iframe.previous", offsetof(_PyInterpreterFrame, previous));
  P("iframe.instr_ptr", offsetof(_PyInterpreterFrame, instr_ptr));
  P("iframe.owner", offsetof(_PyInterpreterFrame, owner));
  P("code.co_linetable", offsetof(PyCodeObject, co_linetable));
  P("code.co_qualname", offsetof(PyCodeObject, co_qualname));
  P("code._co_firsttraceable", offsetof(PyCodeObject, _co_firsttraceable));
  P("code.co_code_adaptive", offsetof(PyCodeObject, co_code_adaptive));
#endif
  P("code.co_filename", offsetof(PyCodeObject, co_filename));
  P("code.co_name", offsetof(PyCodeObject, co_name));
  P("code.co_firstlineno", offsetof(PyCodeObject, co_firstlineno));
  P("bytes.ob_size", offsetof(PyBytesObject, ob_base.ob_size));
  P("bytes.ob_sval", offsetof(PyBytesObject, ob_sval));
  P("ascii.length", offsetof(PyASCIIObject, length));
  P("ascii.state", offsetof(PyASCIIObject, state));
  P("sizeof.ascii", sizeof(PyASCIIObject));
  P("sizeof.compact", sizeof(PyCompactUnicodeObject));
  P("object.ob_type", offsetof(PyObject, ob_type));
  return 0;
}
