// SPDX-License-Identifier: Apache-2.0
#include "common/saturating.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gsys {
namespace {

TEST(SaturatingTest, SpansOfExtremeTimestampsSaturate) {
  EXPECT_EQ(SaturatingSub(INT64_MAX, INT64_MIN), INT64_MAX);
  EXPECT_EQ(SaturatingSub(INT64_MIN, INT64_MAX), INT64_MIN);
  EXPECT_EQ(SaturatingSub(INT64_MIN, 0), INT64_MIN);
  EXPECT_EQ(SaturatingSub(10, 3), 7);
  EXPECT_EQ(SaturatingSub(3, 10), -7);
}

TEST(SaturatingTest, AddAndMulSaturate) {
  EXPECT_EQ(SaturatingAdd(INT64_MAX, 1), INT64_MAX);
  EXPECT_EQ(SaturatingAdd(INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(SaturatingAdd(-5, 3), -2);
  EXPECT_EQ(SaturatingMul(INT64_MAX, 2), INT64_MAX);
  EXPECT_EQ(SaturatingMul(INT64_MIN, 2), INT64_MIN);
  EXPECT_EQ(SaturatingMul(INT64_MIN, -1), INT64_MAX);
  EXPECT_EQ(SaturatingMul(-4, 5), -20);
}

TEST(SaturatingTest, DoublesClampAndNanIsZero) {
  EXPECT_EQ(SaturatingFromDouble(1e300), INT64_MAX);
  EXPECT_EQ(SaturatingFromDouble(-1e300), INT64_MIN);
  EXPECT_EQ(SaturatingFromDouble(std::nan("")), 0);
  EXPECT_EQ(SaturatingFromDouble(-2.7), -2);
}

TEST(SaturatingTest, CeilDivDoesNotOverflow) {
  EXPECT_EQ(CeilDiv(INT64_MAX, 100), INT64_MAX / 100 + 1);
  EXPECT_EQ(CeilDiv(INT64_MAX, 1), INT64_MAX);
  EXPECT_EQ(CeilDiv(10, 5), 2);
  EXPECT_EQ(CeilDiv(11, 5), 3);
  EXPECT_EQ(CeilDiv(0, 5), 0);
}

}  // namespace
}  // namespace gsys
