// SPDX-License-Identifier: Apache-2.0
#include "common/status.h"

#include <gtest/gtest.h>

namespace gsys {
namespace {

Result<int> Half(int x) {
  if (x % 2) return Error(StatusCode::kInvalidArgument, "odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  GSYS_ASSIGN_OR_RETURN(int half, Half(x));
  GSYS_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(StatusTest, AssignOrReturnPropagates) {
  EXPECT_EQ(Quarter(8).value(), 2);
  auto bad = Quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "odd");
}

}  // namespace
}  // namespace gsys
