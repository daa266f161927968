// SPDX-License-Identifier: Apache-2.0
// Entry points of CUDA capture for capture/entry: InitializeInjection calls StartCudaCapture
// (the driver calls it during cuInit, so only processes that use CUDA pay for CUPTI), the
// exit/crash flush calls StopCudaCapture, and the capture window calls SetCudaRecording.
#pragma once

namespace gsys::capture::cupti {

// Reads the CUDA settings (cuda_env.h) and starts CUPTI tracing; registers an atexit flush.
// Returns false (after at most one notice) when CUDA capture is off. Idempotent.
bool StartCudaCapture();
// Flushes every CUDA record (forced) and closes the CUDA stream. Idempotent.
void StopCudaCapture();
// Capture window: turns CUDA recording on or off.
void SetCudaRecording(bool on);

}  // namespace gsys::capture::cupti
