// SPDX-License-Identifier: Apache-2.0
#include "report/import/empty_tables.h"

#include <gtest/gtest.h>

namespace gsys::report {
namespace {

int64_t Tables(Database& db, const std::string& name) {
  auto n = db.QueryInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" +
                       name + "'");
  return n.ok() && *n ? **n : -1;
}

// Empty activity tables go, as nsys exports none; rows, enumerations, metadata and gsys's own
// tables stay.
TEST(EmptyTablesTest, DropsEmptyTablesButTheKeptFamilies) {
  auto db = Database::OpenInMemory();
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->Exec("CREATE TABLE OSRT_API(x); CREATE TABLE NVTX_EVENTS(x);"
                       "INSERT INTO NVTX_EVENTS VALUES (1); CREATE TABLE ENUM_X(x);"
                       "CREATE TABLE META_DATA_CAPTURE(x); CREATE TABLE GSYS_DIAGNOSTICS(x);"
                       "CREATE INDEX osrt_x ON OSRT_API(x)")
                  .ok());
  auto dropped = DropEmptyTables(*db);
  ASSERT_TRUE(dropped.ok()) << dropped.status().message();
  EXPECT_EQ(*dropped, 1);
  EXPECT_EQ(Tables(*db, "OSRT_API"), 0);
  for (const char* kept : {"NVTX_EVENTS", "ENUM_X", "META_DATA_CAPTURE", "GSYS_DIAGNOSTICS"}) {
    EXPECT_EQ(Tables(*db, kept), 1) << kept;
  }
}

}  // namespace
}  // namespace gsys::report
