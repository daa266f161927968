// SPDX-License-Identifier: Apache-2.0
// Every kind of bad input gets its status code and a one-line "report: " message naming the path.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "report/reader/reader_test_util.h"
#include "report/reader/report_reader.h"
#include "report/reader/schema.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("gsys_reader_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  void WriteBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
  }

  std::string ReadBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // A new database at `path` with `sql` applied.
  void MakeDb(const std::string& path, const std::string& sql) {
    Result<Database> db = Database::Open(path, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->Exec(sql).ok()) << sql;
  }

  void MakeGsysReport(const std::string& path, const std::string& extra_sql) {
    Result<Database> db = Database::Open(path, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(CreateReportSchema(*db).ok());
    if (!extra_sql.empty()) {
      ASSERT_TRUE(db->Exec(extra_sql).ok()) << extra_sql;
    }
  }

  void ExpectError(const std::string& path, StatusCode code, const std::string& needle) {
    Result<ReportReader> reader = ReportReader::Open(path);
    ASSERT_FALSE(reader.ok()) << path;
    const std::string& message = reader.status().message();
    EXPECT_EQ(reader.status().code(), code) << message;
    EXPECT_EQ(message.rfind("report: ", 0), 0u) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(needle), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }

  fs::path dir_;
};

TEST_F(BadInputTest, MissingFile) {
  ExpectError(Path("nope.sqlite"), StatusCode::kNotFound, "does not exist");
}

TEST_F(BadInputTest, Directory) {
  ExpectError(dir_.string(), StatusCode::kBadInput, "is a directory");
}

TEST_F(BadInputTest, EmptyFile) {
  WriteBytes(Path("empty.sqlite"), "");
  ExpectError(Path("empty.sqlite"), StatusCode::kBadInput, "is empty");
}

TEST_F(BadInputTest, TextFile) {
  WriteBytes(Path("notes.txt"), "this is not a report\n");
  ExpectError(Path("notes.txt"), StatusCode::kBadInput, "not an SQLite database");
  std::string long_text(4096, 'x');
  WriteBytes(Path("long.txt"), long_text);
  ExpectError(Path("long.txt"), StatusCode::kBadInput, "not an SQLite database");
}

TEST_F(BadInputTest, TruncatedFixture) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  std::string bytes = ReadBytes(testing::Fixture(testing::k2024));
  ASSERT_GT(bytes.size(), 8192u);
  WriteBytes(Path("half.sqlite"), bytes.substr(0, bytes.size() / 2));
  ExpectError(Path("half.sqlite"), StatusCode::kBadInput, "truncated");
  WriteBytes(Path("odd.sqlite"), bytes.substr(0, bytes.size() - 100));
  ExpectError(Path("odd.sqlite"), StatusCode::kBadInput, "truncated");
}

TEST_F(BadInputTest, CorruptSchemaPage) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  std::string bytes = ReadBytes(testing::Fixture(testing::k2024));
  // Page 1 holds sqlite_master after the 100-byte header: garble it.
  for (size_t i = 100; i < 4096; ++i) bytes[i] = static_cast<char>(0xA5);
  WriteBytes(Path("corrupt.sqlite"), bytes);
  ExpectError(Path("corrupt.sqlite"), StatusCode::kBadInput, "corrupt");
}

TEST_F(BadInputTest, SqliteButNotAReport) {
  MakeDb(Path("other.db"),
         "CREATE TABLE users(id INTEGER, name TEXT); INSERT INTO users "
         "VALUES (1, 'a');");
  ExpectError(Path("other.db"), StatusCode::kBadInput, "not a gsys report or nsys");
  MakeDb(Path("strings_only.db"), "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);");
  ExpectError(Path("strings_only.db"), StatusCode::kBadInput, "not a gsys report or nsys");
}

TEST_F(BadInputTest, GsysReportTooNew) {
  MakeGsysReport(Path("uv.gsys-rep"), "PRAGMA user_version = 2;");
  ExpectError(Path("uv.gsys-rep"), StatusCode::kUnsupported, "gsys schema version 2");
  MakeGsysReport(Path("meta.gsys-rep"),
                 "UPDATE GSYS_META SET value = '7' WHERE name = 'gsys_schema_version';");
  ExpectError(Path("meta.gsys-rep"), StatusCode::kUnsupported, "gsys schema version 7");
}

TEST_F(BadInputTest, NsysExportTooNew) {
  MakeDb(Path("nsys9.sqlite"),
         "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
         "CREATE TABLE META_DATA_EXPORT(name TEXT NOT NULL, value TEXT);"
         "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '4.0.1'),"
         "('EXPORT_SCHEMA_VERSION_MAJOR', '4'), ('EXPORT_PRODUCT_VERSION', '2030.1.1.1');");
  ExpectError(Path("nsys9.sqlite"), StatusCode::kUnsupported, "schema version 4.0.1");
}

// Values SQLite would compute on read (a 200 MB name per row from a few bytes of schema) are
// refused; a stored generated column is data in the file and reads.
TEST_F(BadInputTest, ComputedColumnsAndVirtualTables) {
  MakeGsysReport(Path("gen.gsys-rep"),
                 "DROP TABLE StringIds; CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT "
                 "GENERATED ALWAYS AS (printf('%.*c', 200000000, 'x')) VIRTUAL);"
                 "INSERT INTO StringIds(id) VALUES (1);");
  ExpectError(Path("gen.gsys-rep"), StatusCode::kBadInput, "computed column ('StringIds.value')");
  MakeGsysReport(Path("vt.gsys-rep"), "CREATE VIRTUAL TABLE spread USING rtree(id, x0, x1);");
  ExpectError(Path("vt.gsys-rep"), StatusCode::kBadInput, "virtual table ('spread')");
  MakeGsysReport(Path("stored.gsys-rep"),
                 "CREATE TABLE extra(a INTEGER, b INTEGER GENERATED ALWAYS AS (a + 1) STORED);"
                 "INSERT INTO extra(a) VALUES (1);");
  EXPECT_TRUE(ReportReader::Open(Path("stored.gsys-rep")).ok());
}

// Opening leaves the file byte-for-byte unchanged and creates no journal or WAL next to it.
TEST_F(BadInputTest, OpenNeverModifiesTheFile) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  std::string copy = Path("copy.sqlite");
  fs::copy_file(testing::Fixture(testing::k2020), copy);
  std::string before = ReadBytes(copy);
  {
    ReportReader reader = testing::OpenOrDie(copy);
    ASSERT_TRUE(reader.SetTimeWindow({0, 1000000000}).ok());
    EXPECT_GE(testing::Int(reader.db(), "SELECT count(*) FROM PROCESSES"), 1);
  }
  EXPECT_EQ(ReadBytes(copy), before);
  EXPECT_FALSE(fs::exists(copy + "-journal"));
  EXPECT_FALSE(fs::exists(copy + "-wal"));
}

}  // namespace
}  // namespace gsys::report
