// SPDX-License-Identifier: Apache-2.0
#include "launcher/capture_env.h"

#include <gtest/gtest.h>

#include <map>

namespace gsys::launcher {
namespace {

std::map<std::string, std::string> AsMap(const std::vector<std::string>& env) {
  std::map<std::string, std::string> m;
  for (const auto& e : env) m[e.substr(0, e.find('='))] = e.substr(e.find('=') + 1);
  return m;
}

CaptureSettings Settings() {
  CaptureSettings s;
  s.inject_library = "/g/libgsys-inject.so";
  s.session_dir = "/tmp/s";
  s.trace = "nvtx,osrt";
  return s;
}

TEST(CaptureEnvTest, UserVariablesWinOverInheritedOnes) {
  auto env = AsMap(BuildCaptureEnv({"A=old", "KEEP=1"}, {"A=1", "B=x,y"}, Settings()));
  EXPECT_EQ(env["A"], "1");
  EXPECT_EQ(env["B"], "x,y");
  EXPECT_EQ(env["KEEP"], "1");
  EXPECT_EQ(env["LD_PRELOAD"], "/g/libgsys-inject.so");
  EXPECT_EQ(env.count("ASAN_OPTIONS"), 0u);
}

TEST(CaptureEnvTest, APreloadedSanitizerRuntimeGoesFirst) {
  auto env = AsMap(BuildCaptureEnv({"LD_PRELOAD=/u/x.so:/usr/lib/libasan.so.8"}, {}, Settings()));
  EXPECT_EQ(env["LD_PRELOAD"], "/usr/lib/libasan.so.8:/g/libgsys-inject.so:/u/x.so");
  EXPECT_EQ(env.count("ASAN_OPTIONS"), 0u);
}

TEST(CaptureEnvTest, AnExecutableThatNeedsLibasanGetsTheLinkOrderCheckWaived) {
  CaptureSettings s = Settings();
  s.sanitizer_needs = {"libasan.so.8"};
  auto env = AsMap(BuildCaptureEnv({"ASAN_OPTIONS=halt_on_error=1"}, {}, s));
  EXPECT_EQ(env["LD_PRELOAD"], "/g/libgsys-inject.so");  // libasan is not inherited by children
  EXPECT_EQ(env["ASAN_OPTIONS"], "halt_on_error=1:verify_asan_link_order=0");
  // The user preloads libasan itself: it comes first, nothing to waive.
  env = AsMap(BuildCaptureEnv({}, {"LD_PRELOAD=libasan.so.8"}, s));
  EXPECT_EQ(env["LD_PRELOAD"], "libasan.so.8:/g/libgsys-inject.so");
  EXPECT_EQ(env.count("ASAN_OPTIONS"), 0u);
}

// Per-rank reports: the names reach the library only when there are any.
TEST(CaptureEnvTest, OutputVarsAreSetOnlyWhenThePatternDefersSome) {
  EXPECT_EQ(AsMap(BuildCaptureEnv({}, {}, Settings())).count("GSYS_OUTPUT_VARS"), 0u);
  CaptureSettings s = Settings();
  s.output_vars = "RANK,LOCAL_RANK";
  EXPECT_EQ(AsMap(BuildCaptureEnv({"RANK=x"}, {}, s))["GSYS_OUTPUT_VARS"], "RANK,LOCAL_RANK");
}

}  // namespace
}  // namespace gsys::launcher
