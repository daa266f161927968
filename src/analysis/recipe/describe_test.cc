// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/describe.h"

#include <gtest/gtest.h>

namespace gsys::analysis::recipe {
namespace {

TEST(DescribeTest, MatchesPandasDescribe) {
  // pandas: Series([1, 2, 3, 4, 10]).describe() -> mean 4.0, std 3.536, 25% 2, 50% 3, 75% 4.
  std::vector<int64_t> v = {10, 3, 1, 4, 2};
  Describe d = DescribeValues(v);
  EXPECT_EQ(d.count, 5);
  EXPECT_EQ(d.sum, 20);
  EXPECT_DOUBLE_EQ(d.mean, 4.0);
  ASSERT_TRUE(d.std.has_value());
  EXPECT_DOUBLE_EQ(*d.std, 3.5);
  EXPECT_EQ(d.min, 1);
  EXPECT_EQ(d.max, 10);
  EXPECT_DOUBLE_EQ(d.q1, 2.0);
  EXPECT_DOUBLE_EQ(d.median, 3.0);
  EXPECT_DOUBLE_EQ(d.q3, 4.0);
}

TEST(DescribeTest, InterpolatesQuartilesAndHasNoStdForOneValue) {
  std::vector<int64_t> v = {1, 2};
  Describe d = DescribeValues(v);
  EXPECT_DOUBLE_EQ(d.q1, 1.2);  // 1.25 rounds half to even at one decimal
  EXPECT_DOUBLE_EQ(d.median, 1.5);
  EXPECT_DOUBLE_EQ(d.q3, 1.8);  // 1.75 -> 1.8
  std::vector<int64_t> one = {7};
  EXPECT_FALSE(DescribeValues(one).std.has_value());
}

TEST(DescribeTest, MergesRanksAsAllStats) {
  std::vector<int64_t> a = {10, 20, 30}, b = {100, 200};
  std::vector<Cell> m = MergeDescribe({DescribeValues(a), DescribeValues(b)});
  EXPECT_EQ(std::get<int64_t>(m[0]), 5);            // Count
  EXPECT_DOUBLE_EQ(std::get<double>(m[1]), 72.0);   // Mean = 360 / 5
  EXPECT_DOUBLE_EQ(std::get<double>(m[2]), 40.4);   // mean of per-rank Std (10, 70.7)
  EXPECT_EQ(std::get<int64_t>(m[3]), 10);           // Min
  EXPECT_DOUBLE_EQ(std::get<double>(m[4]), 15.0);   // min of Q1
  EXPECT_DOUBLE_EQ(std::get<double>(m[5]), 85.0);   // median of medians (20, 150)
  EXPECT_DOUBLE_EQ(std::get<double>(m[6]), 175.0);  // max of Q3
  EXPECT_EQ(std::get<int64_t>(m[7]), 200);
  EXPECT_EQ(std::get<int64_t>(m[8]), 360);
}

}  // namespace
}  // namespace gsys::analysis::recipe
