// SPDX-License-Identifier: Apache-2.0
// CUDA capture inside libgsys-inject.so: the driver's InitializeInjection entry point
// (CUDA_INJECTION64_PATH; called during cuInit, so processes that never use CUDA pay nothing
// for CUPTI) and the "cuda" capture domain, whose exit/crash flush stops the CUPTI tracer.
// CUDA records go to their own raw stream per process (cupti/cuda_stream_writer.h, written on
// CUPTI's buffer threads); the importer reads it next to the process's CPU stream.
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

#include "capture/capture_domain.h"
#include "capture/cupti/cuda_capture.h"
#include "capture/entry/context.h"
#include "capture/entry/log.h"
#include "capture/sink/sink.h"
#include "format/session_files.h"

namespace gsys::capture {
namespace {

// A cudaProfilerStart/Stop range also gates NVTX and OS-runtime recording (as nsys's
// -c cudaProfilerApi does) and, with stop-shutdown, asks `gsys profile` to end the session.
void OnProfilerRange(bool on) {
  const CaptureConfig& c = CaptureContext().config;
  if (on) {
    ControlOpenRangeWindow();
  } else {
    ControlCloseRangeWindow();
  }
  format::CaptureWindowBody body{NowTicks(), on ? 1u : 0u,
                                 static_cast<uint32_t>(format::CaptureReason::kCudaProfilerApi)};
  EmitRecord(format::RecordKind::kCaptureWindow, body);
  if (on || c.range_end != RangeEnd::kStopShutdown) return;
  char path[kMaxPathBytes + 64];
  std::snprintf(path, sizeof(path), "%s/%s", c.session_dir, format::kShutdownRequestFile);
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) syscall(SYS_close, fd);
}

class CudaDomain final : public CaptureDomain {
 public:
  const char* Name() const override { return "cuda"; }
  bool Enabled(const CaptureConfig& c) const override { return c.cuda.enabled; }
  // CUPTI starts from InitializeInjection, not at library load.
  void Start(const CaptureConfig&) override {}
  void FlushPending() override { cupti::StopCudaCapture(); }
  void OnForkChild() override { cupti::ForgetCudaCaptureInChild(); }
};

}  // namespace

CaptureDomain* CudaCaptureDomain() {
  static CudaDomain domain;
  return &domain;
}

}  // namespace gsys::capture

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  using namespace gsys::capture;
  if (!EnsureInitialized()) return 1;  // never fail the driver's init
  const CaptureConfig& c = CaptureContext().config;
  if (!c.cuda.enabled) return 1;
  ++t_thread.guard;  // CUPTI setup makes OS calls that are not the program's
  bool on = cupti::StartCudaCapture(c.cuda, &OnProfilerRange);
  --t_thread.guard;
  LogVerbose("cuda capture %s", on ? "started" : "off");
  return 1;
}
