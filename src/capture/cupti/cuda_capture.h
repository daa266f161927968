// SPDX-License-Identifier: Apache-2.0
// Entry points of CUDA capture for capture/entry: InitializeInjection (entry/cuda_injection.cc)
// calls StartCudaCapture (the driver calls it during cuInit, so only processes that use CUDA
// pay for CUPTI) and the exit/crash flush calls StopCudaCapture. The -y/-d window is applied
// by the tracer's flush thread; a cudaProfilerApi range calls `hook` so the CPU side follows.
#pragma once

#include "capture/cupti/cupti_tracer.h"
#include "capture/entry/env.h"

namespace gsys::capture::cupti {

// Starts CUPTI tracing with `config` (a copy is kept); registers an atexit flush.
// Returns false (after at most one notice) when CUDA capture is off. Idempotent.
bool StartCudaCapture(const CudaConfig& config, RangeHook hook);
// Flushes every CUDA record (forced) and closes the CUDA stream. Idempotent.
void StopCudaCapture();
// Turns CUDA recording on or off.
void SetCudaRecording(bool on);
// In a forked child: forget the parent's tracer (its threads and CUPTI state did not survive
// the fork), so the exit flush does not join a thread that does not exist. No locking.
void ForgetCudaCaptureInChild();

}  // namespace gsys::capture::cupti
