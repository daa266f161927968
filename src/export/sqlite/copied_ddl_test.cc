// SPDX-License-Identifier: Apache-2.0
#include "export/sqlite/copied_ddl.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

namespace gsys::export_ {
namespace {

struct Closer {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

class CopiedDdlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
    db_.reset(raw);
    ASSERT_EQ(Exec("ATTACH DATABASE ':memory:' AS other; CREATE TABLE other.precious(x);"
                   "BEGIN"),
              SQLITE_OK);
  }
  int Exec(const std::string& sql) {
    return sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, nullptr);
  }
  bool Exists(const std::string& schema, const std::string& name) {
    sqlite3_stmt* stmt = nullptr;
    std::string sql = "SELECT 1 FROM " + schema + ".sqlite_master WHERE name = '" + name + "'";
    sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &stmt, nullptr);
    bool found = sqlite3_step(stmt) == SQLITE_ROW;
    sqlite3_finalize(stmt);
    return found;
  }
  bool InTransaction() { return sqlite3_get_autocommit(db_.get()) == 0; }
  std::unique_ptr<sqlite3, Closer> db_;
};

TEST_F(CopiedDdlTest, RunsOneCreateTableOrIndex) {
  EXPECT_TRUE(ExecCopiedDdl(db_.get(),
                            "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE, "
                            "c INT CHECK (abs(c) >= 0)); -- trailing comment\n;",
                            "t", "out")
                  .ok());
  EXPECT_TRUE(ExecCopiedDdl(db_.get(), "CREATE INDEX t_b ON t (b, lower(b))", "t_b", "out").ok());
  EXPECT_TRUE(Exists("main", "t"));
  EXPECT_TRUE(Exists("main", "t_b"));
  EXPECT_TRUE(InTransaction());
}

TEST_F(CopiedDdlTest, RefusesMoreStatementsAndRunsNoneOfThem) {
  Status s = ExecCopiedDdl(
      db_.get(), "CREATE TABLE t (a); COMMIT; DROP TABLE other.precious; BEGIN", "t", "out.sqlite");
  EXPECT_EQ(s.code(), StatusCode::kBadInput);
  EXPECT_NE(s.message().find("more than one statement"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("out.sqlite"), std::string::npos) << s.message();
  EXPECT_FALSE(Exists("main", "t"));
  EXPECT_TRUE(Exists("other", "precious"));
  EXPECT_TRUE(InTransaction());
}

TEST_F(CopiedDdlTest, RefusesWhatIsNotACreateInMain) {
  for (const char* sql :
       {"ATTACH DATABASE ':memory:' AS e", "DETACH DATABASE other", "PRAGMA writable_schema = ON",
        "COMMIT", "DROP TABLE other.precious", "CREATE TABLE other.t (a)",
        "CREATE TEMP TABLE t (a)", "CREATE TABLE t AS SELECT 1 AS a", "CREATE VIEW v AS SELECT 1",
        "CREATE TRIGGER tr AFTER INSERT ON other.precious BEGIN SELECT 1; END",
        "INSERT INTO other.precious VALUES (1)", "not sql at all", ""}) {
    Status s = ExecCopiedDdl(db_.get(), sql, "x\x1b[2J", "out");
    EXPECT_EQ(s.code(), StatusCode::kBadInput) << sql;
    EXPECT_EQ(s.message().find('\x1b'), std::string::npos) << s.message();
  }
  EXPECT_TRUE(Exists("other", "precious"));
  EXPECT_FALSE(Exists("main", "t"));
  EXPECT_TRUE(InTransaction());
}

}  // namespace
}  // namespace gsys::export_
