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

// The exact binary value decides, half away from zero, as nsys 2025.3.1 prints (tests/parity):
// 8214437 / 20.0 is 410721.849999... (SQLite's built-in round gives 410721.9); 27833629 / 4.0
// is exactly 6958407.25 (Python's round gives 6958407.2); 2.675 is 2.67499999...
TEST_F(SqlFunctionsTest, RoundRoundsTheBinaryValueHalfAway) {
  EXPECT_EQ(Real("SELECT round(8214437 / 20.0, 1)"), 410721.8);
  EXPECT_EQ(Real("SELECT round(27833629 / 4.0, 1)"), 6958407.3);
  EXPECT_EQ(Real("SELECT round(329981 / 4.0, 1)"), 82495.3);
  EXPECT_EQ(Real("SELECT round(2.675, 2)"), 2.67);
  EXPECT_EQ(Real("SELECT round(0.25, 1)"), 0.3);
  EXPECT_EQ(Real("SELECT round(-0.25, 1)"), -0.3);
  EXPECT_EQ(Real("SELECT round(0.04, 1)"), 0.0);
  EXPECT_EQ(Real("SELECT round(-1.35, 1)"), -1.4);  // -1.350000000000000088817...
  EXPECT_EQ(Real("SELECT round(5, 1)"), 5.0);
  auto stmt = db_->Prepare("SELECT round(NULL, 1)");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE(stmt->Step().value());
  EXPECT_TRUE(stmt->IsNull(0));
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
