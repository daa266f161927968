// SPDX-License-Identifier: Apache-2.0
#include "cli/stats_plan.h"

#include <gtest/gtest.h>

namespace gsys::cli {
namespace {

TEST(StatsPlanTest, ExpandListFlagsRepeatsOnEmptyItems) {
  EXPECT_EQ(ExpandListFlags({"csv,,json", "tsv"}),
            (std::vector<std::string>{"csv", "csv", "json", "tsv"}));
  EXPECT_EQ(ExpandListFlags({",csv"}), (std::vector<std::string>{"", "csv"}));
}

TEST(StatsPlanTest, PairingRepeatsLastItem) {
  std::vector<std::string> items = {"a", "b"};
  EXPECT_EQ(PairedItem(items, 0, "d"), "a");
  EXPECT_EQ(PairedItem(items, 5, "d"), "b");
  EXPECT_EQ(PairedItem({}, 1, "d"), "d");
}

TEST(StatsPlanTest, Destinations) {
  auto console = ParseDestination("-", "x/r.sqlite");
  ASSERT_TRUE(console.ok());
  EXPECT_EQ(console->kind, DestinationKind::kConsole);
  auto dot = ParseDestination(".", "x/r.sqlite");
  ASSERT_TRUE(dot.ok());
  EXPECT_EQ(dot->kind, DestinationKind::kFile);
  EXPECT_EQ(dot->target, "x/r");
  auto cmd = ParseDestination("@wc -l", "r.sqlite");
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ(cmd->kind, DestinationKind::kCommand);
  EXPECT_EQ(cmd->target, "wc -l");
  EXPECT_FALSE(ParseDestination("@ ", "r.sqlite").ok());
}

TEST(StatsPlanTest, OutputFileNames) {
  EXPECT_EQ(OutputFileName("out/r", "cuda_api_sum", {}, ".csv"), "out/r_cuda_api_sum.csv");
  EXPECT_EQ(OutputFileName("r", "cuda_gpu_kern_sum", {"base"}, ".txt"),
            "r_cuda_gpu_kern_sum_base.txt");
}

}  // namespace
}  // namespace gsys::cli
