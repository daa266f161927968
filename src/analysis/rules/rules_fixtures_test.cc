// SPDX-License-Identifier: Apache-2.0
// Every rule runs without error on every nsys fixture (2020.3 .. 2026.2), read in place.
#include <gtest/gtest.h>

#include "analysis/rules/rules.h"
#include "common/testing/nsys_fixtures.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis {
namespace {

class RulesOnFixture : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { GSYS_SKIP_WITHOUT_NSYS_FIXTURES(); }
};

TEST_P(RulesOnFixture, EveryRuleRuns) {
  std::string path = fixtures::NsysFixtureDir() + "/" + GetParam();
  auto reader = gsys::report::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  for (const std::string& name : AllRuleNames()) {
    auto outcome = RunRule(*reader, {name, {"rows=-1"}}, path);
    ASSERT_TRUE(outcome.ok()) << name << ": " << outcome.status().message();
    if (outcome->skipped) {
      EXPECT_NE(outcome->skip_reason.find("could not be analyzed"), std::string::npos) << name;
    }
  }
  // A rule-level window runs too, and leaves the reader unfiltered afterwards.
  auto windowed = RunRule(*reader, {"gpu_gaps", {"start=0", "end=1000000000"}}, path);
  ASSERT_TRUE(windowed.ok()) << windowed.status().message();
  auto missing = RunRule(*reader, {"gpu_gaps", {"nvtx=no such range"}}, path);
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->skip_reason, "NVTX range 'no such range' could not be found.");
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, RulesOnFixture,
    ::testing::Values("nsys2020.3-python-nvtx-cudf.sqlite",
                      "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite",
                      "nsys2023.1-tensorrt-resnet-nvtx.sqlite",
                      "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite",
                      "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite",
                      "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite"));

}  // namespace
}  // namespace gsys::analysis
