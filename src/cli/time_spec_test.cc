// SPDX-License-Identifier: Apache-2.0
#include "cli/time_spec.h"

#include <gtest/gtest.h>

namespace gsys::cli {
namespace {

TEST(TimeSpecTest, CombinedUnits) {
  EXPECT_EQ(ParseTimeValue("1s2ms3us4ns").value(), 1002003004);
  EXPECT_EQ(ParseTimeValue("250").value(), 250);
  EXPECT_EQ(ParseTimeValue("1.5ms").value(), 1500000);
  EXPECT_EQ(ParseTimeValue("-5e3").value(), -5000);
  EXPECT_EQ(ParseTimeValue("2min").value(), 120000000000);
}

TEST(TimeSpecTest, RejectsJunk) {
  EXPECT_FALSE(ParseTimeValue("").ok());
  EXPECT_FALSE(ParseTimeValue("5parsecs").ok());
  EXPECT_FALSE(ParseTimeValue("ms").ok());
  EXPECT_EQ(ParseTimeValue("5x").status().message(),
            "invalid time value '5x': unknown unit 'x' (expected ns, us, ms, s, m, h)");
}

TEST(TimeSpecTest, Windows) {
  auto w = ParseTimeWindow("1s/");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->start, 1000000000);
  EXPECT_EQ(w->end, INT64_MAX);
  auto v = ParseTimeWindow("/20ms");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->start, INT64_MIN);
  EXPECT_EQ(v->end, 20000000);
  EXPECT_FALSE(ParseTimeWindow("5").ok());
  EXPECT_FALSE(ParseTimeWindow("5s/1s").ok());
}

}  // namespace
}  // namespace gsys::cli
