// SPDX-License-Identifier: Apache-2.0
// cuBLAS/cuBLASLt/cuDNN API trace (-t cublas, -t cudnn): the generated function table, the
// wrapper template every generated wrapper instantiates, and the per-call record path.
//
// How calls reach a wrapper (docs/architecture.md, "Library API trace"): got_patcher.h writes
// the wrapper's address into the GOT slots of every loaded object that imports the function,
// once at start and again after each dlopen. Nothing is exported or patched while the trace is
// off, so a process without -t cublas/cudnn runs the libraries untouched.
//
// Threading: wrappers run on any thread; they read the real-function table (written before the
// GOT slot that leads to them) and append to the thread's sink buffer.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <type_traits>

#include "capture/clock/clock.h"
#include "capture/sink/sink.h"
#include "format/libapi_records.h"

namespace gsys::capture::libapi {

using format::LibApiLibrary;

struct LibApiName {
  const char* name;
  LibApiLibrary library;
};

// The generated table (libapi_names.inc), sorted by name; the index is the function id.
extern const LibApiName kLibApiNames[];
extern const uint32_t kLibApiCount;

// Real entry point of each function (null until its library is found), its wrapper, and
// whether this process's stream has defined its name yet.
extern std::atomic<void*> g_real[];
extern void* g_wrapper[];
extern std::atomic<uint8_t> g_named[];
// Libraries being traced (bit 1 << LibApiLibrary).
extern uint32_t g_traced_libraries;

// Fills g_wrapper from every generated group (libapi_wrappers_*.cc).
void RegisterWrappers();
void RegisterCublasWrappers();
void RegisterCublasXtWrappers();
void RegisterCublasLtWrappers();
void RegisterCudnnWrappers();

// Id of `name` in kLibApiNames, or -1.
int64_t FindFunction(const char* name);

// Records one call (the name first, once per process). Keeps errno.
void EmitCall(uint32_t id, int64_t start, int64_t return_value);

inline bool Recording() { return RecordingOn(); }

template <typename R>
inline int64_t ResultValue(const R& r) {
  if constexpr (std::is_integral_v<R> || std::is_enum_v<R>) {
    return static_cast<int64_t>(r);
  } else {
    return 0;
  }
}

// Wrap<Id, F>::Call has exactly the signature of F and forwards to g_real[Id].
template <uint32_t Id, typename F>
struct Wrap;

template <uint32_t Id, typename R, typename... A>
struct Wrap<Id, R (*)(A...)> {
  static R Call(A... args) {
    auto real = reinterpret_cast<R (*)(A...)>(g_real[Id].load(std::memory_order_relaxed));
    if (!Recording()) return real(args...);
    int64_t start = NowTicks();
    if constexpr (std::is_void_v<R>) {
      real(args...);
      EmitCall(Id, start, 0);
    } else {
      R r = real(args...);
      EmitCall(Id, start, ResultValue(r));
      return r;
    }
  }
};

template <uint32_t Id, typename R, typename... A>
struct Wrap<Id, R (*)(A...) noexcept> : Wrap<Id, R (*)(A...)> {};

}  // namespace gsys::capture::libapi

// Used by the generated libapi_<group>.inc files inside a kEntries[] initializer.
// The cast selects the declared C function where C++ overloads share its name.
#define GSYS_LIBAPI_WRAP(id, name, ret, params) \
  {id,                                          \
   reinterpret_cast<void*>(                     \
       &::gsys::capture::libapi::Wrap<id, decltype(static_cast<ret(*) params>(&::name))>::Call)},
