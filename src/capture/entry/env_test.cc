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
    for (const char* v : {kEnvSessionDir, kEnvTrace, kEnvNvtxCapture, kEnvCaptureRangeEnd,
                          kEnvBufferBytes, kEnvOsrtThresholdNs}) {
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
  setenv(kEnvSessionDir, "/tmp/s", 1);
  setenv(kEnvTrace, "nvtx", 1);
  setenv(kEnvOsrtThresholdNs, "5000", 1);
  setenv(kEnvBufferBytes, "10000", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.enabled);
  EXPECT_TRUE(c.trace_nvtx);
  EXPECT_FALSE(c.trace_osrt);
  EXPECT_EQ(c.osrt_threshold_ns, 5000);
  EXPECT_EQ(c.buffer_bytes, 16384u);
}

TEST_F(EnvTest, TriggerSplitsOnLastUnescapedAt) {
  setenv(kEnvSessionDir, "/tmp/s", 1);
  setenv(kEnvNvtxCapture, "a\\@b@c@Dom", 1);
  setenv(kEnvCaptureRangeEnd, "repeat:3", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.nvtx_trigger);
  EXPECT_STREQ(c.trigger_range, "a@b@c");
  EXPECT_STREQ(c.trigger_domain, "Dom");
  EXPECT_EQ(c.range_end, RangeEnd::kRepeat);
  EXPECT_EQ(c.range_repeat, 3);
}

TEST_F(EnvTest, TriggerAnyDomainAndDefaultDomain) {
  setenv(kEnvSessionDir, "/tmp/s", 1);
  setenv(kEnvNvtxCapture, "step@*", 1);
  CaptureConfig c;
  ReadCaptureConfig(&c);
  EXPECT_TRUE(c.trigger_any_domain);
  EXPECT_STREQ(c.trigger_range, "step");
  setenv(kEnvNvtxCapture, "step", 1);
  CaptureConfig d;
  ReadCaptureConfig(&d);
  EXPECT_FALSE(d.trigger_any_domain);
  EXPECT_STREQ(d.trigger_domain, "");
  EXPECT_EQ(d.range_end, RangeEnd::kStopShutdown);
}

}  // namespace
}  // namespace gsys::capture
