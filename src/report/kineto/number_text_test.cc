// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/number_text.h"

#include <gtest/gtest.h>

namespace gsys::report::kineto {
namespace {

TEST(NumberText, MicrosKeepEveryNanosecond) {
  // 1.7e18 ns: a double would lose the last digits.
  EXPECT_EQ(MicrosTextToNanos("1790857026000123.456"), 1790857026000123456);
  EXPECT_EQ(MicrosTextToNanos("5345072582472.205"), 5345072582472205);
  EXPECT_EQ(MicrosTextToNanos("12"), 12000);
  EXPECT_EQ(MicrosTextToNanos("0.8"), 800);
  EXPECT_EQ(MicrosTextToNanos("1.23456"), 1234);  // past ns: truncated
  EXPECT_EQ(MicrosTextToNanos("-3.5"), -3500);
  EXPECT_EQ(MicrosTextToNanos("1.5e3"), 1500000);
}

TEST(NumberText, RefusesWhatDoesNotFit) {
  EXPECT_FALSE(MicrosTextToNanos("99999999999999999999"));
  EXPECT_FALSE(MicrosTextToNanos("9223372036854775.808"));
  EXPECT_FALSE(MicrosTextToNanos("1e300"));
  EXPECT_FALSE(MicrosTextToNanos("abc"));
  EXPECT_FALSE(MicrosTextToNanos(""));
  EXPECT_FALSE(MicrosTextToNanos("1.2.3"));
  EXPECT_EQ(ParseIntText("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(ParseIntText("-9223372036854775808"), INT64_MIN);
  EXPECT_FALSE(ParseIntText("9223372036854775808"));
  EXPECT_FALSE(ParseIntText("1.5"));
  EXPECT_FALSE(ParseIntText("-"));
}

}  // namespace
}  // namespace gsys::report::kineto
