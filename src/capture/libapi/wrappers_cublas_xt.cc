// SPDX-License-Identifier: Apache-2.0
// Generated wrappers for the functions <cublasXt.h> declares (libapi_cublas_xt.inc, made by
// gen_libapi.py at build time). Compiling this file is the check that every generated name
// exists in the installed headers with a forwardable signature.
#if __has_include(<cublasXt.h>)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cublasXt.h>
#define GSYS_LIBAPI_HAVE_HEADER 1
#endif

#include "capture/libapi/libapi.h"

namespace gsys::capture::libapi {
namespace {

struct Entry {
  uint32_t id;
  void* wrapper;
};

#ifdef GSYS_LIBAPI_HAVE_HEADER
const Entry kEntries[] = {
#include "libapi_cublas_xt.inc"
    {UINT32_MAX, nullptr}};
#else
const Entry kEntries[] = {{UINT32_MAX, nullptr}};
#endif

}  // namespace

void RegisterCublasXtWrappers() {
  for (const Entry& e : kEntries) {
    if (e.id < kLibApiCount) g_wrapper[e.id] = e.wrapper;
  }
}

}  // namespace gsys::capture::libapi
#ifdef GSYS_LIBAPI_HAVE_HEADER
#pragma GCC diagnostic pop
#endif
