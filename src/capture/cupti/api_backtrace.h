// SPDX-License-Identifier: Apache-2.0
// ApiBacktrace: --cudabacktrace. Times every CUDA API call through the CUPTI callback API
// (enter/exit on the calling thread) and, for calls at least as long as their category's
// threshold (kernel launches, memory, synchronization, other: nsys's categories and
// semantics), records the thread's native stack and, with --python-backtrace, its Python stack
// (capture/stack), keyed by the call's correlation id, which its API record also carries.
// Only constructed and subscribed when a backtrace option is on: otherwise CUPTI makes no
// callbacks for ordinary API calls and nothing here runs.
//
// Threading: OnApi runs on the thread that makes the API call; per-thread state is TLS, the
// category cache is filled racily with idempotent values.
#pragma once

#include <cupti.h>

#include <atomic>
#include <cstdint>

#include "capture/entry/env.h"

namespace gsys::capture::cupti {

// --cudabacktrace categories; kUnknown: calls that never get a stack.
enum class ApiCategory : uint8_t { kUnknown = 0, kKernel = 1, kMemory = 2, kSync = 3, kOther = 4 };

// The category of a CUPTI callback name ("cudaLaunchKernel_v7000", "cuMemcpyHtoD_v2");
// kUnknown for the trivial calls that get no API record by default (cudaGetDevice, ...).
ApiCategory ClassifyApi(const char* name);

class ApiBacktrace {
 public:
  using NameFn = const char* (*)(void* ctx, CUpti_CallbackDomain, CUpti_CallbackId);
  ApiBacktrace(const BacktraceConfig& config, NameFn name, void* name_ctx)
      : config_(config), name_(name), name_ctx_(name_ctx) {}

  bool enabled() const { return config_.cuda_enabled; }
  // Enter/exit of an API call; `recording`: the capture window is open (else no stack).
  void OnApi(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData* cb,
             bool recording);

 private:
  ApiCategory Category(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

  BacktraceConfig config_;
  NameFn name_;
  void* name_ctx_;
  static constexpr uint32_t kCbidSlots = 2048;
  std::atomic<uint8_t> categories_[2][kCbidSlots] = {};
};

}  // namespace gsys::capture::cupti
