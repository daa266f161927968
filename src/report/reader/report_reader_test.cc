// SPDX-License-Identifier: Apache-2.0
// The reader on the real nsys fixtures: canonical tables and columns resolve on every version,
// row counts are the files' own (SOURCES.md beside the fixtures), and version quirks are hidden.
#include "report/reader/report_reader.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "report/reader/reader_test_util.h"
#include "report/reader/table_plan.h"

namespace gsys::report {
namespace {

using testing::Fixture;
using testing::Int;
using testing::OpenOrDie;

const std::vector<std::string> kFixtures = {testing::k2020, testing::k2022, testing::k2023,
                                            testing::k2024, testing::k2025, testing::k2026};

// SOURCES.md's count table; -1 = absent from the file (presented as an empty view).
struct Counts {
  int64_t kernel, runtime, memcpy, nvtx, osrt, memset, sync, strings;
};
const std::map<std::string, Counts> kCounts = {
    {testing::k2020, {268, 1161, 144, 896, 4815, 14, 240, 1355}},
    {testing::k2022, {4, 38, 12, -1, 849, -1, 1, 506}},
    {testing::k2023, {36, 5668, 4, 60, -1, -1, 2, 176}},
    {testing::k2024, {19, 967, 1, 639, -1, 1, 1, 2786}},
    {testing::k2025, {7, 439, 5511, 6, 2500, -1, 6, 1749}},
    {testing::k2026, {4010, 7466, 1020, 19118, -1, 269, 366, 126}},
};

class FixtureTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { GSYS_SKIP_WITHOUT_NSYS_FIXTURES(); }
};

TEST_P(FixtureTest, RowCountsMatchSources) {
  ReportReader reader = OpenOrDie(Fixture(GetParam()));
  EXPECT_EQ(reader.source(), ReportSource::kNsys);
  const Counts& c = kCounts.at(GetParam());
  const std::vector<std::pair<std::string, int64_t>> expected = {
      {"CUPTI_ACTIVITY_KIND_KERNEL", c.kernel},
      {"CUPTI_ACTIVITY_KIND_RUNTIME", c.runtime},
      {"CUPTI_ACTIVITY_KIND_MEMCPY", c.memcpy},
      {"NVTX_EVENTS", c.nvtx},
      {"OSRT_API", c.osrt},
      {"CUPTI_ACTIVITY_KIND_MEMSET", c.memset},
      {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", c.sync},
      {"StringIds", c.strings},
  };
  for (const auto& [table, count] : expected) {
    SCOPED_TRACE(table);
    EXPECT_EQ(reader.HasTable(table), count >= 0);
    EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM " + table), count < 0 ? 0 : count);
    Result<bool> has_rows = reader.HasRows(table);
    ASSERT_TRUE(has_rows.ok());
    EXPECT_EQ(*has_rows, count > 0);
  }
  EXPECT_FALSE(reader.HasTable("CUDNN_EVENTS"));
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM CUDNN_EVENTS"), 0);
  EXPECT_FALSE(reader.HasRows("CUBLAS_EVENTS").value());
  EXPECT_FALSE(reader.HasRows("NO_SUCH_TABLE").value());
}

// Every canonical column of every canonical table can be selected, by name, on every version.
TEST_P(FixtureTest, EveryCanonicalColumnResolves) {
  ReportReader reader = OpenOrDie(Fixture(GetParam()));
  Result<std::vector<internal::CanonicalTable>> canonical = internal::LoadCanonicalTables();
  ASSERT_TRUE(canonical.ok()) << canonical.status().message();
  for (const internal::CanonicalTable& table : *canonical) {
    std::string columns;
    for (const std::string& column : table.columns) {
      columns += (columns.empty() ? "" : ", ") + QuoteIdentifier(column);
    }
    std::string sql =
        "SELECT count(*) FROM (SELECT " + columns + " FROM " + QuoteIdentifier(table.name) + ")";
    EXPECT_GE(Int(reader.db(), sql), 0) << table.name;
  }
  // The examples of the brief, spelled out.
  EXPECT_GE(
      Int(reader.db(),
          "SELECT count(mangledName) + count(greenContextId) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
      0);
  EXPECT_GE(Int(reader.db(),
                "SELECT count(*) FROM NVTX_EVENTS WHERE coalesce(text, (SELECT "
                "value FROM StringIds WHERE id = textId)) IS NOT NULL"),
            0);
}

// The enums resolve with nsys's values whether the file has them (2022.4+, misspelt or not) or
// not (2020.x).
TEST_P(FixtureTest, EnumsResolve) {
  ReportReader reader = OpenOrDie(Fixture(GetParam()));
  auto label = [&](const std::string& table, int id) {
    Result<std::optional<std::string>> text =
        reader.db().QueryText("SELECT label FROM " + table + " WHERE id = " + std::to_string(id));
    return text.ok() && text->has_value() ? **text : std::string("<none>");
  };
  EXPECT_EQ(label("ENUM_CUDA_MEMCPY_OPER", 1), "Host-to-Device");
  EXPECT_EQ(label("ENUM_CUDA_MEMCPY_OPER", 11), "Unified Host-to-Device");
  EXPECT_EQ(label("ENUM_CUDA_KERNEL_LAUNCH_TYPE", 1), "Regular");
  EXPECT_EQ(label("ENUM_CUPTI_SYNC_TYPE", 3), "Stream sync");
  EXPECT_EQ(label("ENUM_NSYS_EVENT_CLASS", 0), "CUDA runtime");
  EXPECT_EQ(Int(reader.db(),
                "SELECT count(*) FROM ENUM_NSYS_EVENT_TYPE WHERE id IN (34, 59, 60, "
                "75, 76)"),
            5);
  EXPECT_GE(Int(reader.db(), "SELECT count(*) FROM ENUM_CUDA_MEM_KIND"), 8);
}

TEST_P(FixtureTest, ProcessesAndSessionTablesResolve) {
  ReportReader reader = OpenOrDie(Fixture(GetParam()));
  // Every process that ran a kernel is in PROCESSES, with pid = (globalPid >> 24) & 0xFFFFFF.
  EXPECT_EQ(Int(reader.db(),
                "SELECT count(*) FROM (SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL) "
                "AS k WHERE NOT EXISTS (SELECT 1 FROM PROCESSES AS p WHERE p.globalPid = "
                "k.globalPid AND p.pid = (k.globalPid >> 24) & 16777215)"),
            0);
  EXPECT_GE(Int(reader.db(), "SELECT count(utcEpochNs) FROM TARGET_INFO_SESSION_START_TIME"), 0);
  EXPECT_GE(Int(reader.db(), "SELECT count(*) FROM GSYS_META"), 0);
  EXPECT_GE(Int(reader.db(), "SELECT count(*) FROM META_DATA_EXPORT"), 0);
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, FixtureTest, ::testing::ValuesIn(kFixtures),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return "nsys" + param.param.substr(4, 4) + "_" +
                                  param.param.substr(9, 1);
                         });

TEST(ReportReaderTest, ProducerVersions) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  EXPECT_EQ(OpenOrDie(Fixture(testing::k2020)).ProducerVersion(), "nsys 2020.x (no metadata)");
  EXPECT_EQ(OpenOrDie(Fixture(testing::k2022)).ProducerVersion(), "nsys 2022.4.2.1");
  EXPECT_EQ(OpenOrDie(Fixture(testing::k2023)).ProducerVersion(), "nsys 2023.1.2.43");
  EXPECT_EQ(OpenOrDie(Fixture(testing::k2024)).ProducerVersion(), "nsys 2024.6.2.25");
  EXPECT_EQ(OpenOrDie(Fixture(testing::k2025)).ProducerVersion(), "nsys 2025.1.1.103");
  EXPECT_EQ(OpenOrDie(Fixture(testing::k2026)).ProducerVersion(), "nsys 2026.2.1.210");
}

// 2022.4 / 2023.1: EXPORT_META_DATA and ENUM_CUDA_KRENEL_LAUNCH_TYPE under canonical names.
TEST(ReportReaderTest, OldTableNamesAreMapped) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2022));
  EXPECT_TRUE(reader.HasTable("META_DATA_EXPORT"));
  EXPECT_TRUE(reader.HasTable("ENUM_CUDA_KERNEL_LAUNCH_TYPE"));
  Result<std::optional<std::string>> schema = reader.db().QueryText(
      "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'");
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->value_or(""), "3.0.0");
}

// 2020.3: no PROCESSES (synthesized from ids in the data), no enums, old TARGET_INFO_GPU.
TEST(ReportReaderTest, Nsys2020LayoutIsHidden) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2020));
  EXPECT_FALSE(reader.HasTable("PROCESSES"));
  EXPECT_FALSE(reader.HasTable("ENUM_CUDA_MEMCPY_OPER"));
  EXPECT_TRUE(reader.HasTable("TARGET_INFO_GPU"));
  Database raw = testing::OpenRaw(Fixture(testing::k2020));
  int64_t processes = Int(raw,
                          "SELECT count(*) FROM (SELECT globalPid AS g FROM "
                          "CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT globalPid FROM "
                          "CUPTI_ACTIVITY_KIND_MEMCPY UNION SELECT globalPid FROM "
                          "CUPTI_ACTIVITY_KIND_MEMSET UNION SELECT globalPid FROM "
                          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION UNION SELECT globalTid & "
                          "-16777216 FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION SELECT globalTid & "
                          "-16777216 FROM NVTX_EVENTS UNION SELECT globalTid & -16777216 FROM "
                          "OSRT_API UNION SELECT globalTid & -16777216 FROM ThreadNames)");
  EXPECT_GT(processes, 0);
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM PROCESSES"), processes);
  EXPECT_EQ(Int(reader.db(), "SELECT pid FROM PROCESSES WHERE globalPid = 283799342546944"),
            (283799342546944 >> 24) & 0xFFFFFF);
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM TARGET_INFO_GPU"), 2);
  EXPECT_EQ(Int(reader.db(), "SELECT smCount FROM TARGET_INFO_GPU WHERE id = 1"), 72);
  EXPECT_EQ(Int(reader.db(), "SELECT clockRate FROM TARGET_INFO_GPU WHERE id = 0"), 1770000000);
  EXPECT_EQ(Int(reader.db(),
                "SELECT computeMajor * 10 + computeMinor FROM TARGET_INFO_GPU "
                "WHERE id = 0"),
            75);
  Result<std::optional<std::string>> name =
      reader.db().QueryText("SELECT name FROM TARGET_INFO_GPU WHERE id = 1");
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(name->value_or(""), "Quadro RTX 8000");
}

// A file that already has the canonical shape of a table gets no view for it: no cost on the
// common path.
TEST(ReportReaderTest, NoViewWhereTheFileIsCanonical) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2026));
  EXPECT_EQ(Int(reader.db(),
                "SELECT count(*) FROM temp.sqlite_master WHERE name IN "
                "('CUPTI_ACTIVITY_KIND_RUNTIME', 'NVTX_EVENTS', 'StringIds', "
                "'CUPTI_ACTIVITY_KIND_MEMCPY', 'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION')"),
            0);
  // 2026.2 lacks TARGET_INFO_GPU: an empty view with the canonical columns.
  EXPECT_FALSE(reader.HasTable("TARGET_INFO_GPU"));
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM TARGET_INFO_GPU"), 0);
}

TEST(ReportReaderTest, SqlFunctionsAreRegistered) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2024));
  EXPECT_GT(Int(reader.db(),
                "SELECT CAST(median(end - start) AS INTEGER) FROM "
                "CUPTI_ACTIVITY_KIND_KERNEL"),
            0);
}

// Correlation ids repeat across the two processes of the torchrun file: the join scoped by
// process matches each kernel at most once, the unscoped one does not.
TEST(ReportReaderTest, CorrelationJoinScopedByProcess) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2026));
  const std::string matched =
      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k WHERE EXISTS (SELECT 1 FROM "
      "CUPTI_ACTIVITY_KIND_RUNTIME AS r WHERE r.correlationId = k.correlationId AND "
      "(r.globalTid & -16777216) = k.globalPid)";
  EXPECT_EQ(Int(reader.db(), matched), 3986);  // 24 launches fell outside the upstream slice
  EXPECT_EQ(Int(reader.db(),
                "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN "
                "CUPTI_ACTIVITY_KIND_RUNTIME AS r ON r.correlationId = k.correlationId AND "
                "(r.globalTid & -16777216) = k.globalPid"),
            3986);
  EXPECT_GT(Int(reader.db(),
                "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN "
                "CUPTI_ACTIVITY_KIND_RUNTIME AS r ON r.correlationId = k.correlationId"),
            3986);
}

}  // namespace
}  // namespace gsys::report
