// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/stats_test_util.h"

#include <gtest/gtest.h>

#include "report/db/sql_functions.h"
#if GSYS_STATS_HAVE_READER
#include "report/reader/report_reader.h"
#endif

namespace gsys::analysis::testing {
namespace {

using gsys::report::Database;

class DatabaseFixture : public Fixture {
 public:
  DatabaseFixture(Database db, Database raw) : db_(std::move(db)), raw_(std::move(raw)) {}
  Result<ReportOutcome> Run(const ReportRequest& request) override {
    return RunReportOnDatabase(db_, request);
  }
  Database& raw() override { return raw_; }

 private:
  Database db_;
  Database raw_;
};

#if GSYS_STATS_HAVE_READER
class ReaderFixture : public Fixture {
 public:
  ReaderFixture(gsys::report::ReportReader reader, Database raw)
      : reader_(std::move(reader)), raw_(std::move(raw)) {}
  Result<ReportOutcome> Run(const ReportRequest& request) override {
    return RunReport(reader_, request);
  }
  Database& raw() override { return raw_; }

 private:
  gsys::report::ReportReader reader_;
  Database raw_;
};
#endif

}  // namespace

std::string FixturePath(const std::string& file) { return fixtures::NsysFixtureDir() + "/" + file; }

bool HaveReader() { return GSYS_STATS_HAVE_READER != 0; }

std::unique_ptr<Fixture> Fixture::Open(const std::string& file) {
  std::string path = FixturePath(file);
  auto raw = Database::Open(path, Database::Mode::kReadOnly);
  EXPECT_TRUE(raw.ok()) << path << ": " << raw.status().message();
  if (!raw.ok()) return nullptr;
  EXPECT_TRUE(gsys::report::RegisterSqlFunctions(*raw).ok());
#if GSYS_STATS_HAVE_READER
  auto reader = gsys::report::ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << path << ": " << reader.status().message();
  if (!reader.ok()) return nullptr;
  return std::make_unique<ReaderFixture>(std::move(reader).value(), std::move(raw).value());
#else
  auto db = Database::Open(path, Database::Mode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return nullptr;
  return std::make_unique<DatabaseFixture>(std::move(db).value(), std::move(raw).value());
#endif
}

int ColumnIndex(const ResultTable& table, const std::string& label) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].label == label) return static_cast<int>(i);
  }
  return -1;
}

double CellNumber(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return 0;
}

std::string CellText(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&cell)) return std::to_string(*d);
  return "";
}

}  // namespace gsys::analysis::testing
