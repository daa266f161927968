// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace gsys::capture {
namespace {

class EnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v :
         {format::kEnvSessionDir, format::kEnvTrace, format::kEnvNvtxCapture,
          format::kEnvCaptureRangeEnd, format::kEnvBufferBytes, format::kEnvOsrtThresholdNs,
          format::kEnvCudaGraphTrace, format::kEnvCudaMemoryUsage, format::kEnvCaptureRange,
          format::kEnvCudaKinds, format::kEnvCudaFlushMs, format::kEnvCaptureStartNs}) {
      unsetenv(v);
    }
  }
};

TEST_F(EnvTest, InertWithoutSessionDir) {
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_FALSE(c.enabled);
}

TEST_F(EnvTest, ParsesTraceThresholdAndBuffer) {
  setenv(format::kEnvSessionDir, "/tmp/s", 1);
  setenv(format::kEnvTrace, "nvtx", 1);
  setenv(format::kEnvOsrtThresholdNs, "5000", 1);
  setenv(format::kEnvBufferBytes, "10000", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.enabled);
  EXPECT_TRUE(c.trace_nvtx);
  EXPECT_FALSE(c.trace_osrt);
  EXPECT_EQ(c.osrt_threshold_ns, 5000);
  EXPECT_EQ(c.buffer_bytes, 16384u);
}

TEST_F(EnvTest, TriggerSplitsOnLastUnescapedAt) {
  setenv(format::kEnvSessionDir, "/tmp/s", 1);
  setenv(format::kEnvNvtxCapture, "a\\@b@c@Dom", 1);
  setenv(format::kEnvCaptureRangeEnd, "repeat:3", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.nvtx_trigger);
  EXPECT_STREQ(c.trigger_range, "a@b@c");
  EXPECT_STREQ(c.trigger_domain, "Dom");
  EXPECT_EQ(c.range_end, RangeEnd::kRepeat);
  EXPECT_EQ(c.range_repeat, 3);
}

TEST_F(EnvTest, TriggerAnyDomainAndDefaultDomain) {
  setenv(format::kEnvSessionDir, "/tmp/s", 1);
  setenv(format::kEnvNvtxCapture, "step@*", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.trigger_any_domain);
  EXPECT_STREQ(c.trigger_range, "step");
  setenv(format::kEnvNvtxCapture, "step", 1);
  CaptureConfig d;
  ReadCaptureConfig(&d);
  EXPECT_FALSE(d.trigger_any_domain);
  EXPECT_STREQ(d.trigger_domain, "");
  EXPECT_EQ(d.range_end, RangeEnd::kStopShutdown);
}

TEST_F(EnvTest, CudaFollowsTraceListAndFlags) {
  setenv(format::kEnvSessionDir, "/tmp/s", 1);
  setenv(format::kEnvTrace, "nvtx,osrt", 1);
  CaptureConfig off;
  ReadCaptureConfig(&off);
  EXPECT_FALSE(off.cuda.enabled);
  setenv(format::kEnvTrace, "cuda,nvtx", 1);
  setenv(format::kEnvCudaGraphTrace, "graph", 1);
  setenv(format::kEnvCudaMemoryUsage, "1", 1);
  setenv(format::kEnvCaptureRange, "cudaProfilerApi", 1);
  setenv(format::kEnvCaptureRangeEnd, "stop", 1);
  setenv(format::kEnvCudaFlushMs, "50", 1);
  setenv(format::kEnvCaptureStartNs, "123", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.cuda.enabled);
  EXPECT_FALSE(c.trace_osrt);
  EXPECT_STREQ(c.cuda.session_dir, "/tmp/s");
  EXPECT_NE(c.cuda.kinds & kCudaGraph, 0u);
  EXPECT_NE(c.cuda.kinds & kCudaMemory, 0u);
  EXPECT_TRUE(c.cuda.profiler_api_range);
  EXPECT_EQ(c.cuda.range_end, RangeEnd::kStop);
  EXPECT_EQ(c.cuda.flush_ms, 50);
  EXPECT_EQ(c.cuda.capture_start_ns, 123);
  setenv(format::kEnvCudaKinds, "kernel,runtime", 1);
  CaptureConfig k;
  ReadCaptureConfig(&k);
  EXPECT_EQ(k.cuda.kinds, static_cast<uint32_t>(kCudaKernel | kCudaRuntime));
}

TEST_F(EnvTest, CudaBacktraceThresholdsPerCategory) {
  BacktraceConfig all;
  ParseCudaBacktrace("all:500", &all);
  EXPECT_TRUE(all.cuda_enabled);
  EXPECT_EQ(all.threshold_ns[0], -1);  // the trivial calls never get a stack
  for (int i = 1; i < 5; ++i) EXPECT_EQ(all.threshold_ns[i], 500);
  BacktraceConfig some;
  ParseCudaBacktrace("kernel:0,sync:80000", &some);
  EXPECT_EQ(some.threshold_ns[1], 0);
  EXPECT_EQ(some.threshold_ns[2], -1);
  EXPECT_EQ(some.threshold_ns[3], 80000);
  EXPECT_EQ(some.threshold_ns[4], -1);
  BacktraceConfig none;
  ParseCudaBacktrace("bogus:5", &none);
  EXPECT_FALSE(none.cuda_enabled);
}

TEST_F(EnvTest, StackSettings) {
  setenv(format::kEnvSessionDir, "/tmp/s", 1);
  setenv(format::kEnvTrace, "cuda,osrt", 1);
  setenv(format::kEnvCudaBacktrace, "memory:100", 1);
  setenv(format::kEnvPythonBacktrace, "cuda", 1);
  setenv(format::kEnvSample, "process-tree", 1);
  setenv(format::kEnvSamplingFrequency, "20000", 1);  // out of range: default kept
  setenv(format::kEnvTestStackAt, "usleep:python", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.cuda.backtrace.cuda_enabled);
  EXPECT_EQ(c.cuda.backtrace.threshold_ns[2], 100);
  EXPECT_TRUE(c.cuda.backtrace.python);
  EXPECT_TRUE(c.sampling.sample);
  EXPECT_EQ(c.sampling.frequency_hz, 1000);
  EXPECT_EQ(c.test_stack_osrt_function, 11);  // format::OsrtFunction usleep
  EXPECT_TRUE(c.test_stack_python);
  for (const char* v : {format::kEnvCudaBacktrace, format::kEnvPythonBacktrace, format::kEnvSample,
                        format::kEnvSamplingFrequency, format::kEnvTestStackAt}) {
    unsetenv(v);
  }
}

}  // namespace
}  // namespace gsys::capture
