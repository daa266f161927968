// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/group_stats_function.h"

#include <gtest/gtest.h>

namespace gsys::analysis {
namespace {

TEST(GroupStatsFunctionTest, GroupsAndStats) {
  auto db = gsys::report::Database::OpenInMemory();
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(RegisterGroupStatsFunction(*db).ok());
  ASSERT_TRUE(db->Exec("CREATE TABLE t(k, v);"
                       "INSERT INTO t VALUES (2, 10), (1, 1), (2, 20), (1, 2), (1, 3), (1, 10),"
                       " ('x\"y', 5), (NULL, 7), (2, NULL);")
                  .ok());
  auto json = db->QueryText("SELECT gsys_group_stats(k, v) FROM t");
  ASSERT_TRUE(json.ok());
  ASSERT_TRUE(json->has_value());
  EXPECT_EQ(**json,
            "[[null,7,1,7,7,7,7,0,7,7],"
            "[1,16,4,4,2.5,1,10,4.0824829046386304,1.75,4.75],"
            "[2,30,2,15,15,10,20,7.0710678118654755,12.5,17.5],"
            "[\"x\\\"y\",5,1,5,5,5,5,0,5,5]]");
  auto empty = db->QueryText("SELECT gsys_group_stats(k, v) FROM t WHERE 0");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(**empty, "[]");
}

}  // namespace
}  // namespace gsys::analysis
