// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/cupti_tracer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "capture/entry/log.h"
#include "format/cuda_records.h"

namespace gsys::capture::cupti {
namespace {

// CUPTI's buffer callbacks carry no user pointer, so they reach the tracer through this one
// pointer, set by Start() and never reset (the tracer lives until exit).
std::atomic<CuptiTracer*> g_tracer{nullptr};

constexpr size_t kBufferBytes = 4u << 20;  // Kineto's size; CUPTI suggests 1-10 MiB
constexpr size_t kMaxBuffers = 64;         // 256 MiB cap, then CUPTI drops (and we count)

uint64_t MonotonicNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

void Print(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void Print(const char* fmt, ...) {
  // The session's log file, not the program's stderr (entry/log.h).
  va_list ap;
  va_start(ap, fmt);
  LogAlwaysV(fmt, ap);
  va_end(ap);
}

constexpr CUpti_CallbackId kDriverLaunchCbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

// Runtime calls nsys does not record (absent from its exports, e.g. PyTorch's cudaGetDevice
// around every op): left out by default, which also keeps the API counts comparable. The list
// is what nsys 2025.3.1 left out of the same PyTorch and C++ programs on the H200
// (bench/RESULTS.md, "CUDA API names"), and no nsys fixture has any of them.
constexpr CUpti_CallbackId kQuietRuntimeCbids[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050,
    CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetAttribute_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolAddress_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000,
    CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050,
    CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000,
};

}  // namespace

// CUPTI checked call: logs the call text and result once, evaluates to the result.
#define GSYS_CUPTI_CALL(api, call)                               \
  ([&]() {                                                       \
    CUptiResult gsys_r = (api).call;                             \
    if (gsys_r != CUPTI_SUCCESS && config_.log) {                \
      Print("cupti: %s -> %s", #call, (api).ResultText(gsys_r)); \
    }                                                            \
    return gsys_r;                                               \
  }())

CuptiTracer::CuptiTracer(const CudaConfig& config, RangeHook hook)
    : config_(config),
      hook_(hook),
      pool_(kBufferBytes, kMaxBuffers),
      adapter_(&writer_, &CuptiTracer::CallbackName, this, 0),
      backtrace_(config.backtrace, &CuptiTracer::CallbackName, this) {}

const char* CuptiTracer::CallbackName(void* ctx, CUpti_CallbackDomain domain,
                                      CUpti_CallbackId cbid) {
  auto* self = static_cast<CuptiTracer*>(ctx);
  const char* name = nullptr;
  if (self->api_.GetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS) return nullptr;
  return name;
}

void CuptiTracer::Notice(uint32_t notice, uint64_t value, const char* text) {
  format::CudaNoticeBody b{};
  b.timestamp = static_cast<int64_t>(MonotonicNow());
  b.value = value;
  b.notice = notice;
  size_t len = text != nullptr ? std::strlen(text) : 0;
  if (len > format::kMaxTextBytes) len = format::kMaxTextBytes;
  b.text_len = static_cast<uint32_t>(len);
  std::lock_guard<std::mutex> lock(decode_mu_);
  writer_.Add(format::kCudaNotice, static_cast<uint32_t>(gettid()), b, text, len);
  writer_.Flush();
}

bool CuptiTracer::Start() {
  if (started_ || !config_.enabled) return false;
  std::string error;
  if (!LoadCuptiApi(config_.cuda_home, &api_, &error)) {
    Print("CUDA trace off: %s; CPU capture goes on", error.c_str());
    return false;
  }
  uint32_t version = 0;
  api_.GetVersion(&version);
  adapter_ = ActivityAdapter(&writer_, &CuptiTracer::CallbackName, this, version);
  if (!writer_.Open(config_.session_dir, static_cast<uint32_t>(getpid()), MonotonicNow() | 1)) {
    Print("CUDA trace off: cannot create a stream in %s", config_.session_dir);
    return false;
  }
  if (!Subscribe()) return false;  // printed its warning
  GSYS_CUPTI_CALL(api_, SetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM));
  if (api_.ActivityRegisterTimestampCallback != nullptr) {
    GSYS_CUPTI_CALL(api_, ActivityRegisterTimestampCallback(&MonotonicNow));
  }
  if (GSYS_CUPTI_CALL(api_, ActivityRegisterCallbacks(&OnBufferRequested, &OnBufferCompleted)) !=
      CUPTI_SUCCESS) {
    Notice(static_cast<uint32_t>(format::CudaNotice::kInitFailed), 0,
           "cuptiActivityRegisterCallbacks");
    Print("CUDA trace off: cuptiActivityRegisterCallbacks failed");
    return false;
  }
  g_tracer.store(this, std::memory_order_release);
  // Metadata kinds stay on for the whole run: devices, contexts and streams are described
  // once, when they are created, and the report needs them even outside capture ranges.
  for (CUpti_ActivityKind k :
       {CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT, CUPTI_ACTIVITY_KIND_STREAM}) {
    GSYS_CUPTI_CALL(api_, ActivityEnable(k));
  }
  started_ = true;
  if (!config_.profiler_api_range) ApplyWindow();
  flusher_ = std::thread([this] { FlushLoop(); });
  if (config_.log) {
    Print("cupti: %s (API version %u), kinds 0x%x, flush %d ms", api_.path.c_str(), version,
          config_.kinds, config_.flush_ms);
  }
  return true;
}

bool CuptiTracer::Subscribe() {
  CUptiResult r;
  char holder[256] = {0};
  if (api_.Subscribe_v2 != nullptr) {
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "gsys";
    params.oldSubscriberName = holder;
    params.oldSubscriberSize = sizeof(holder);
    r = api_.Subscribe_v2(&subscriber_, &CuptiTracer::OnCallback, this, &params);
  } else {
    r = api_.Subscribe(&subscriber_, &CuptiTracer::OnCallback, this);
  }
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    const char* who = holder[0] != '\0' ? holder : "another CUPTI client";
    Print(
        "warning: CUDA trace off: %s is already attached to CUPTI (one client per process); "
        "no CUDA kernels, copies or API calls will be recorded; NVTX and OS runtime go on",
        who);
    Notice(static_cast<uint32_t>(format::CudaNotice::kOtherSubscriber), 0, who);
    return false;
  }
  if (r != CUPTI_SUCCESS) {
    Print("CUDA trace off: cuptiSubscribe: %s; CPU capture goes on", api_.ResultText(r));
    Notice(static_cast<uint32_t>(format::CudaNotice::kInitFailed), r, "cuptiSubscribe");
    return false;
  }
  GSYS_CUPTI_CALL(api_, EnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API,
                                       CUPTI_DRIVER_TRACE_CBID_cuProfilerStart));
  GSYS_CUPTI_CALL(api_, EnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API,
                                       CUPTI_DRIVER_TRACE_CBID_cuProfilerStop));
  GSYS_CUPTI_CALL(api_, EnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API,
                                       CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020));
  if (backtrace_.enabled()) EnableBacktraceCallbacks();
  return true;
}

// --cudabacktrace: enter/exit callbacks for the API calls that become API records (the whole
// runtime domain; the driver domain, or just its launch calls, as the activity kinds say).
void CuptiTracer::EnableBacktraceCallbacks() {
  GSYS_CUPTI_CALL(api_, EnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API));
  if (config_.kinds & kCudaDriver) {
    GSYS_CUPTI_CALL(api_, EnableDomain(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API));
  } else if (config_.kinds & kCudaDriverLaunch) {
    for (CUpti_CallbackId cbid : kDriverLaunchCbids) {
      GSYS_CUPTI_CALL(api_, EnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, cbid));
    }
  }
}

void CuptiTracer::EnableKinds(bool on) {
  uint32_t k = config_.kinds;
  auto set = [&](CUpti_ActivityKind kind) {
    CUptiResult r = on ? api_.ActivityEnable(kind) : api_.ActivityDisable(kind);
    if (r != CUPTI_SUCCESS && on) {
      Print("cupti: cannot enable activity kind %d: %s", static_cast<int>(kind),
            api_.ResultText(r));
      Notice(static_cast<uint32_t>(format::CudaNotice::kEnableFailed), kind, api_.ResultText(r));
    }
  };
  if (k & kCudaRuntime) set(CUPTI_ACTIVITY_KIND_RUNTIME);
  // After the kind: enabling RUNTIME resets the per-call settings.
  if (on && (k & kCudaRuntime) && !(k & kCudaRuntimeAll) &&
      api_.ActivityEnableRuntimeApi != nullptr) {
    for (CUpti_CallbackId cbid : kQuietRuntimeCbids) api_.ActivityEnableRuntimeApi(cbid, 0);
  }
  if (k & kCudaDriver) set(CUPTI_ACTIVITY_KIND_DRIVER);
  if ((k & kCudaDriverLaunch) && !(k & kCudaDriver) && api_.ActivityEnableDriverApi != nullptr) {
    for (CUpti_CallbackId cbid : kDriverLaunchCbids) api_.ActivityEnableDriverApi(cbid, on);
  }
  if (k & kCudaKernel) set(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (k & kCudaMemcpy) {
    set(CUPTI_ACTIVITY_KIND_MEMCPY);
    set(CUPTI_ACTIVITY_KIND_MEMCPY2);
  }
  if (k & kCudaMemset) set(CUPTI_ACTIVITY_KIND_MEMSET);
  if (k & kCudaSync) set(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  if (k & kCudaGraph) set(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
  if (k & kCudaMemory) set(CUPTI_ACTIVITY_KIND_MEMORY2);
  if (k & kCudaOverhead) set(CUPTI_ACTIVITY_KIND_OVERHEAD);
}

void CuptiTracer::SetRecording(bool on) {
  if (!started_ || recording_.exchange(on) == on) return;
  EnableKinds(on);
}

void CuptiTracer::OnProfilerApi(bool start, CUpti_ApiCallbackSite site) {
  if (!config_.profiler_api_range) return;
  // Start takes effect when cuProfilerStart returns, stop when cuProfilerStop is entered,
  // so neither call is inside its own range (as with nsys).
  if (start && site != CUPTI_API_EXIT) return;
  if (!start && site != CUPTI_API_ENTER) return;
  if (start) {
    bool once =
        config_.range_end == RangeEnd::kStop || config_.range_end == RangeEnd::kStopShutdown;
    if (recording_.load() || (once && ranges_seen_ > 0)) return;
    ++ranges_seen_;
  } else if (!recording_.load() || config_.range_end == RangeEnd::kNone) {
    return;
  }
  format::CudaRangeBody b{static_cast<int64_t>(MonotonicNow()), start ? 1u : 0u, 0};
  {
    std::lock_guard<std::mutex> lock(decode_mu_);
    writer_.Add(format::kCudaProfilerRange, static_cast<uint32_t>(gettid()), b);
  }
  SetRecording(start);
  if (hook_ != nullptr) hook_(start);
  if (!start) api_.ActivityFlushAll(0);
}

void CUPTIAPI CuptiTracer::OnCallback(void* userdata, CUpti_CallbackDomain domain,
                                      CUpti_CallbackId cbid, const void* data) {
  auto* self = static_cast<CuptiTracer*>(userdata);
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (self->backtrace_.enabled()) {
    self->backtrace_.OnApi(domain, cbid, cb, self->recording_.load(std::memory_order_relaxed));
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart)
      self->OnProfilerApi(true, cb->callbackSite);
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)
      self->OnProfilerApi(false, cb->callbackSite);
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
             cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020 &&
             cb->callbackSite == CUPTI_API_ENTER) {
    // Records of a context are lost once it is destroyed: collect them first.
    self->api_.ActivityFlushAll(0);
  }
}

void CUPTIAPI CuptiTracer::OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  CuptiTracer* self = g_tracer.load(std::memory_order_acquire);
  *max_records = 0;
  *buffer = self != nullptr ? self->pool_.Get() : nullptr;
  *size = *buffer != nullptr ? self->pool_.buffer_bytes() : 0;
}

void CUPTIAPI CuptiTracer::OnBufferCompleted(CUcontext ctx, uint32_t stream_id, uint8_t* buffer,
                                             size_t, size_t valid_size) {
  CuptiTracer* self = g_tracer.load(std::memory_order_acquire);
  if (self == nullptr) return;
  self->Decode(buffer, valid_size);
  size_t dropped = 0;
  self->api_.ActivityGetNumDroppedRecords(ctx, stream_id, &dropped);
  std::lock_guard<std::mutex> lock(self->decode_mu_);
  self->last_dropped_ += dropped;
  uint64_t exhausted = self->pool_.exhausted();
  if (dropped != 0 || exhausted != self->last_exhausted_) {
    format::CudaNoticeBody b{static_cast<int64_t>(MonotonicNow()), self->last_dropped_,
                             static_cast<uint32_t>(format::CudaNotice::kDroppedRecords), 0};
    self->writer_.Add(format::kCudaNotice, 0, b);
    b.value = exhausted;
    b.notice = static_cast<uint32_t>(format::CudaNotice::kBufferPoolExhausted);
    self->writer_.Add(format::kCudaNotice, 0, b);
    self->last_exhausted_ = exhausted;
  }
  self->writer_.Flush();
  self->pool_.Put(buffer);
}

void CuptiTracer::Decode(uint8_t* buffer, size_t valid_size) {
  if (buffer == nullptr || valid_size == 0) return;
  std::lock_guard<std::mutex> lock(decode_mu_);
  CUpti_Activity* record = nullptr;
  while (api_.ActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    adapter_.Handle(record);
  }
}

int64_t CuptiTracer::ApplyWindow() {
  int64_t wait_ms = config_.flush_ms;
  const std::atomic<uint32_t>* shared = config_.session_recording;
  // Without a control page a cudaProfilerApi range drives recording itself; with one, the
  // session's flag does (set by this process's range, another process's, or the launcher).
  if (config_.profiler_api_range && shared == nullptr) return wait_ms;
  int64_t start = config_.capture_start_ns, stop = config_.capture_stop_ns;
  int64_t now = static_cast<int64_t>(MonotonicNow());
  bool in = (start == 0 || now >= start) && (stop == 0 || now < stop);
  if (shared != nullptr) in = in && shared->load(std::memory_order_relaxed) != 0;
  SetRecording(in);
  for (int64_t edge : {start, stop}) {
    if (edge > now) wait_ms = std::min<int64_t>(wait_ms, (edge - now) / 1000000 + 1);
  }
  return wait_ms;
}

void CuptiTracer::FlushLoop() {
  std::unique_lock<std::mutex> lock(flush_mu_);
  int64_t wait_ms = config_.flush_ms;
  while (!flush_stop_) {
    flush_cv_.wait_for(lock, std::chrono::milliseconds(wait_ms));
    if (flush_stop_) break;
    lock.unlock();
    api_.ActivityFlushAll(0);
    wait_ms = ApplyWindow();
    lock.lock();
  }
}

void CuptiTracer::Stop() {
  if (!started_ || stopped_) return;
  stopped_ = true;
  {
    std::lock_guard<std::mutex> lock(flush_mu_);
    flush_stop_ = true;
  }
  flush_cv_.notify_all();
  if (flusher_.joinable()) flusher_.join();
  api_.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(decode_mu_);
  writer_.Close();
}

}  // namespace gsys::capture::cupti
