// SPDX-License-Identifier: Apache-2.0
// The "libapi" capture domain: -t cublas and -t cudnn. Start registers the generated wrappers,
// installs the dlopen hook and patches what is loaded; a forked child defines names again in
// its own stream.
#include "capture/capture_domain.h"
#include "capture/entry/log.h"
#include "capture/libapi/dlopen_hook.h"
#include "capture/libapi/got_patcher.h"
#include "capture/libapi/libapi.h"

namespace gsys::capture {
namespace {

class LibApiDomain final : public CaptureDomain {
 public:
  const char* Name() const override { return "libapi"; }
  bool Enabled(const CaptureConfig& c) const override { return c.trace_cublas || c.trace_cudnn; }
  void Start(const CaptureConfig& c) override {
    using libapi::LibApiLibrary;
    uint32_t libs = 0;
    if (c.trace_cublas) libs |= 1u << static_cast<int>(LibApiLibrary::kCublas);
    if (c.trace_cudnn) libs |= 1u << static_cast<int>(LibApiLibrary::kCudnn);
    libapi::g_traced_libraries = libs;
    libapi::RegisterWrappers();
    libapi::InitDlopenHook(c.ld_library_path);
    int slots = libapi::ScanLoadedObjects();
    LogVerbose("libapi: %u functions in the table, %d GOT slots patched at start",
               libapi::kLibApiCount, slots);
  }
  void OnForkChild() override {
    for (uint32_t i = 0; i < libapi::kLibApiCount; ++i) {
      libapi::g_named[i].store(0, std::memory_order_relaxed);
    }
  }
};

}  // namespace

CaptureDomain* LibApiCaptureDomain() {
  static LibApiDomain domain;
  return &domain;
}

}  // namespace gsys::capture
