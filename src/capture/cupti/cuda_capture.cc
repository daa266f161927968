// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/cuda_capture.h"

#include <cstdlib>
#include <mutex>
#include <new>

namespace gsys::capture::cupti {
namespace {

std::mutex g_mu;
CuptiTracer* g_cuda = nullptr;  // created once, never freed (CUPTI may call in until exit)

void AtExit() { StopCudaCapture(); }

}  // namespace

bool StartCudaCapture(const CudaConfig& config, RangeHook hook) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_cuda != nullptr) return g_cuda->started();
  if (!config.enabled) return false;
  g_cuda = new (std::nothrow) CuptiTracer(config, hook);
  if (g_cuda == nullptr || !g_cuda->Start()) return false;
  std::atexit(AtExit);
  return true;
}

void StopCudaCapture() {
  CuptiTracer* t;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    t = g_cuda;
  }
  if (t != nullptr) t->Stop();
}

void SetCudaRecording(bool on) {
  CuptiTracer* t;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    t = g_cuda;
  }
  if (t != nullptr) t->SetRecording(on);
}

void ForgetCudaCaptureInChild() { g_cuda = nullptr; }

}  // namespace gsys::capture::cupti
