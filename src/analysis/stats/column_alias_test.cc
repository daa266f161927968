// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/column_alias.h"

#include <gtest/gtest.h>

namespace gsys::analysis {
namespace {

TEST(ColumnAliasTest, Categories) {
  Column c = ParseColumnAlias("Total Time:dur_ns");
  EXPECT_EQ(c.label, "Total Time");
  EXPECT_EQ(c.category, UnitCategory::kDur);
  EXPECT_EQ(c.base_unit, "ns");
  EXPECT_FALSE(c.hidden);
  EXPECT_EQ(ParseColumnAlias("Total:mem_B").category, UnitCategory::kMem);
  EXPECT_EQ(ParseColumnAlias("Throughput:thru_B").category, UnitCategory::kThru);
  EXPECT_EQ(ParseColumnAlias("Time:ratio_%").base_unit, "%");
  EXPECT_EQ(ParseColumnAlias("Start:ts_ns").category, UnitCategory::kTs);
  EXPECT_EQ(ParseColumnAlias("Virtual Address:addr_uint").category, UnitCategory::kAddr);
  EXPECT_EQ(ParseColumnAlias("PID:gid").category, UnitCategory::kGid);
}

TEST(ColumnAliasTest, PlainAndHidden) {
  Column name = ParseColumnAlias("Name");
  EXPECT_EQ(name.label, "Name");
  EXPECT_EQ(name.category, UnitCategory::kNone);
  EXPECT_TRUE(ParseColumnAlias("_Q1").hidden);
  Column odd = ParseColumnAlias("a:b_c");
  EXPECT_EQ(odd.label, "a:b_c");
  EXPECT_EQ(odd.category, UnitCategory::kNone);
}

}  // namespace
}  // namespace gsys::analysis
