// SPDX-License-Identifier: Apache-2.0
// CuptiTracer: CUDA capture inside libgsys-inject.so. Started from InitializeInjection (the
// CUDA driver calls it during cuInit, only in processes that use CUDA), it loads libcupti
// (cupti_api.h), subscribes to the callback API for cuProfilerStart/Stop and cudaDeviceReset,
// puts CUPTI on CLOCK_MONOTONIC and Linux tids, enables the configured activity kinds, and
// runs one flush thread that calls cuptiActivityFlushAll every flush period. CUPTI hands full
// or flushed buffers back on its own threads; they are decoded (ActivityAdapter) into the
// per-process CUDA stream (CudaStreamWriter) and the buffer returns to the pool.
//
// Threading: Start/Stop on the injecting thread and at exit; the static CUPTI callbacks on
// any thread; decoding and writing are serialized by `decode_mu_`. The tracer never holds
// `decode_mu_` while calling cuptiActivityFlushAll (the completion callback takes it).
// Failure policy: any setup failure prints one notice and leaves CUDA capture off; the host
// process is never aborted.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "capture/cupti/activity_adapter.h"
#include "capture/cupti/api_backtrace.h"
#include "capture/cupti/buffer_pool.h"
#include "capture/cupti/cuda_stream_writer.h"
#include "capture/cupti/cupti_api.h"
#include "capture/entry/env.h"

namespace gsys::capture::cupti {

// Called when a cudaProfilerStart/Stop range opens (`on`) or closes, on the calling thread, so
// the CPU-side domains follow the same window.
using RangeHook = void (*)(bool on);

class CuptiTracer {
 public:
  CuptiTracer(const CudaConfig& config, RangeHook hook);
  ~CuptiTracer() = default;
  CuptiTracer(const CuptiTracer&) = delete;
  CuptiTracer& operator=(const CuptiTracer&) = delete;

  // Sets everything up; false (after one notice on stderr) when CUDA capture stays off.
  bool Start();
  // Flushes everything (forced), disables CUPTI and closes the stream. Idempotent.
  void Stop();
  // Turns recording on or off (capture window: delay/duration, cudaProfilerStart/Stop).
  void SetRecording(bool on);

  bool started() const { return started_; }

 private:
  static void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records);
  static void CUPTIAPI OnBufferCompleted(CUcontext ctx, uint32_t stream_id, uint8_t* buffer,
                                         size_t size, size_t valid_size);
  static void CUPTIAPI OnCallback(void* userdata, CUpti_CallbackDomain domain,
                                  CUpti_CallbackId cbid, const void* data);
  static const char* CallbackName(void* ctx, CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

  bool Subscribe();
  void EnableBacktraceCallbacks();
  void EnableKinds(bool on);
  void Decode(uint8_t* buffer, size_t valid_size);
  void OnProfilerApi(bool start, CUpti_ApiCallbackSite site);
  void FlushLoop();
  // The -y/-d window: recording follows it; returns ms until the next edge (or the period).
  int64_t ApplyWindow();
  void Notice(uint32_t notice, uint64_t value, const char* text);

  CudaConfig config_;
  RangeHook hook_ = nullptr;
  CuptiApi api_;
  BufferPool pool_;
  std::mutex decode_mu_;  // guards writer_, adapter_
  CudaStreamWriter writer_;
  ActivityAdapter adapter_;
  ApiBacktrace backtrace_;  // --cudabacktrace; inert unless configured
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::atomic<bool> recording_{false};
  bool started_ = false;
  bool stopped_ = false;
  int ranges_seen_ = 0;
  uint64_t last_dropped_ = 0;
  uint64_t last_exhausted_ = 0;
  std::thread flusher_;
  std::mutex flush_mu_;
  std::condition_variable flush_cv_;
  bool flush_stop_ = false;
};

}  // namespace gsys::capture::cupti
