// SPDX-License-Identifier: Apache-2.0
// The "stack" capture domain: CPU sampling (-s), the context-switch notice (--cpuctxsw) and the
// stack test hook (GSYS_TEST_STACK_AT). CUDA backtraces are driven by capture/cupti.
#include "capture/capture_domain.h"
#include "capture/stack/module_map.h"
#include "capture/stack/python_stack.h"
#include "capture/stack/sampler.h"
#include "capture/stack/stack_site.h"

namespace gsys::capture {
namespace {

class StackDomain final : public CaptureDomain {
 public:
  const char* Name() const override { return "stack"; }
  bool Enabled(const CaptureConfig& c) const override {
    return c.sampling.sample || c.sampling.ctxsw || c.test_stack_osrt_function > 0 ||
           c.cuda.backtrace.cuda_enabled;
  }
  void Start(const CaptureConfig& c) override {
    g_stack_test_python = c.test_stack_python;
    g_stack_test_osrt_function = c.test_stack_osrt_function;
    StartCpuSampler(c.sampling);
  }
  void FlushPending() override { StopCpuSampler(); }
  void OnForkChild() override {
    ResetModuleMap();
    ForgetCpuSamplerInChild();
  }
};

}  // namespace

CaptureDomain* StackCaptureDomain() {
  static StackDomain domain;
  return &domain;
}

}  // namespace gsys::capture
