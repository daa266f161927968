// SPDX-License-Identifier: Apache-2.0
#include "report/reader/schema.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "report/reader/reader_test_util.h"
#include "report/reader/report_reader.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

TEST(SchemaTest, EmbeddedSqlIsVersioned) {
  std::string_view sql = CanonicalSchemaSql();
  EXPECT_NE(sql.find("PRAGMA user_version = " + std::to_string(kGsysSchemaVersion) + ";"),
            std::string_view::npos);
  EXPECT_NE(sql.find("CREATE TABLE GSYS_META"), std::string_view::npos);
  EXPECT_NE(sql.find("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL"), std::string_view::npos);
}

TEST(SchemaTest, CreateReportSchemaInMemory) {
  Result<Database> db = Database::OpenInMemory();
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(CreateReportSchema(*db).ok());
  EXPECT_EQ(testing::Int(*db, "PRAGMA user_version"), kGsysSchemaVersion);
  EXPECT_EQ(testing::Int(*db, "SELECT value FROM GSYS_META WHERE name = 'gsys_schema_version'"),
            kGsysSchemaVersion);
  EXPECT_EQ(testing::Int(*db, "SELECT count(*) FROM ENUM_CUDA_MEMCPY_OPER"), 14);
  // Not on a database that already has tables.
  Status again = CreateReportSchema(*db);
  EXPECT_EQ(again.code(), StatusCode::kInvalidArgument);
}

TEST(SchemaTest, GsysReportOpensAsGsysWithoutViews) {
  fs::path path =
      fs::temp_directory_path() / ("gsys_schema_test_" + std::to_string(::getpid()) + ".gsys-rep");
  fs::remove(path);
  {
    Result<Database> db = Database::Open(path.string(), Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(CreateReportSchema(*db).ok());
    ASSERT_TRUE(db->Exec("INSERT INTO GSYS_META VALUES ('tool_version', '0.1.0');"
                         "INSERT INTO StringIds VALUES (1, 'k');"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, "
                         "contextId, streamId, globalPid, demangledName, shortName, "
                         "registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
                         "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, "
                         "localMemoryTotal, gridId) VALUES (10, 20, 0, 1, 7, 16777216, 1, 1, 32, "
                         "1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1);")
                    .ok());
  }
  {
    ReportReader reader = testing::OpenOrDie(path.string());
    EXPECT_EQ(reader.source(), ReportSource::kGsys);
    EXPECT_EQ(reader.ProducerVersion(), "gsys 0.1.0");
    EXPECT_TRUE(reader.HasTable("GSYS_DIAGNOSTICS"));
    EXPECT_TRUE(reader.HasTable("cupti_activity_kind_kernel"));
    // Canonical file: nothing is shadowed.
    EXPECT_EQ(testing::Int(reader.db(), "SELECT count(*) FROM temp.sqlite_master"), 0);
    EXPECT_TRUE(reader.HasRows("CUPTI_ACTIVITY_KIND_KERNEL").value());
    EXPECT_FALSE(reader.HasRows("NVTX_EVENTS").value());
    ASSERT_TRUE(reader.SetTimeWindow({21, 30}).ok());
    EXPECT_FALSE(reader.HasRows("CUPTI_ACTIVITY_KIND_KERNEL").value());
    ASSERT_TRUE(reader.SetTimeWindow({15, 16}).ok());
    EXPECT_TRUE(reader.HasRows("CUPTI_ACTIVITY_KIND_KERNEL").value());
  }
  fs::remove(path);
}

}  // namespace
}  // namespace gsys::report
