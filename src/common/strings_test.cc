// SPDX-License-Identifier: Apache-2.0
#include "common/strings.h"

#include <gtest/gtest.h>

namespace gsys {
namespace {

TEST(StringsTest, SplitKeepsEmptyFields) {
  EXPECT_EQ(Split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(Split("", ','), (std::vector<std::string>{""}));
}

TEST(StringsTest, ParseInt64RejectsJunk) {
  EXPECT_EQ(ParseInt64("42"), 42);
  EXPECT_EQ(ParseInt64("-7"), -7);
  EXPECT_FALSE(ParseInt64("4x"));
  EXPECT_FALSE(ParseInt64(""));
  EXPECT_FALSE(ParseInt64("99999999999999999999"));
}

TEST(StringsTest, ClosestMatchFindsTypos) {
  std::vector<std::string> names = {"cuda_api_sum", "cuda_gpu_kern_sum", "nvtx_sum"};
  EXPECT_EQ(ClosestMatch("cuda_gpu_kern_summ", names), "cuda_gpu_kern_sum");
  EXPECT_EQ(ClosestMatch("nvtxsum", names), "nvtx_sum");
  EXPECT_FALSE(ClosestMatch("zzzzzzzzzzzzzzzzzzzzzz", names));
}

TEST(StringsTest, GroupThousands) {
  EXPECT_EQ(GroupThousands("213318215.0"), "213,318,215.0");
  EXPECT_EQ(GroupThousands("-1234"), "-1,234");
  EXPECT_EQ(GroupThousands("999"), "999");
  EXPECT_EQ(GroupThousands("1000"), "1,000");
}

}  // namespace
}  // namespace gsys
