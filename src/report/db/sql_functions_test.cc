// SPDX-License-Identifier: Apache-2.0
#include "report/db/sql_functions.h"

#include <gtest/gtest.h>

namespace gsys::report {
namespace {

class SqlFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::OpenInMemory();
    ASSERT_TRUE(db.ok());
    db_.emplace(std::move(db).value());
    ASSERT_TRUE(RegisterSqlFunctions(*db_).ok());
    ASSERT_TRUE(db_->Exec("CREATE TABLE t(g INT, x INT, s INT, e INT)").ok());
  }
  double Real(const std::string& sql) {
    auto stmt = db_->Prepare(sql);
    EXPECT_TRUE(stmt.ok()) << stmt.status().message();
    auto row = stmt->Step();
    EXPECT_TRUE(row.ok() && row.value());
    return stmt->ColumnDouble(0);
  }
  std::optional<Database> db_;
};

TEST_F(SqlFunctionsTest, MedianOddAndEven) {
  ASSERT_TRUE(db_->Exec("INSERT INTO t(x) VALUES (5),(1),(3)").ok());
  EXPECT_DOUBLE_EQ(Real("SELECT median(x) FROM t"), 3.0);
  ASSERT_TRUE(db_->Exec("INSERT INTO t(x) VALUES (10)").ok());
  EXPECT_DOUBLE_EQ(Real("SELECT median(x) FROM t"), 4.0);
}

TEST_F(SqlFunctionsTest, SampleStdev) {
  ASSERT_TRUE(db_->Exec("INSERT INTO t(x) VALUES (608888),(672703)").ok());
  EXPECT_NEAR(Real("SELECT stdev(x) FROM t"), 45124.0, 0.05);  // nsys prints 45124.0
  ASSERT_TRUE(db_->Exec("DELETE FROM t; INSERT INTO t(x) VALUES (7)").ok());
  EXPECT_DOUBLE_EQ(Real("SELECT stdev(x) FROM t"), 0.0);
}

TEST_F(SqlFunctionsTest, GroupedAggregatesAreIndependent) {
  ASSERT_TRUE(db_->Exec("INSERT INTO t(g,x) VALUES (1,1),(1,2),(2,100),(2,200),(2,300)").ok());
  EXPECT_DOUBLE_EQ(Real("SELECT median(x) FROM t WHERE g=1"), 1.5);
  auto stmt = db_->Prepare("SELECT g, median(x) FROM t GROUP BY g ORDER BY g");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE(stmt->Step().value());
  EXPECT_DOUBLE_EQ(stmt->ColumnDouble(1), 1.5);
  ASSERT_TRUE(stmt->Step().value());
  EXPECT_DOUBLE_EQ(stmt->ColumnDouble(1), 200.0);
}

TEST_F(SqlFunctionsTest, Quartiles) {
  ASSERT_TRUE(db_->Exec("INSERT INTO t(x) VALUES (1),(2),(3),(4),(5)").ok());
  EXPECT_DOUBLE_EQ(Real("SELECT lower_quartile(x) FROM t"), 2.0);
  EXPECT_DOUBLE_EQ(Real("SELECT upper_quartile(x) FROM t"), 4.0);
}

TEST_F(SqlFunctionsTest, UniqueDurationMergesOverlaps) {
  ASSERT_TRUE(db_->Exec("INSERT INTO t(s,e) VALUES (0,10),(5,15),(20,30),(25,26)").ok());
  EXPECT_DOUBLE_EQ(Real("SELECT unique_duration(s,e) FROM t"), 25.0);
}

}  // namespace
}  // namespace gsys::report
