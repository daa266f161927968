// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/formatter.h"

#include <gtest/gtest.h>

#include "analysis/stats/format/format_test_tables.h"

namespace gsys::analysis {
namespace {

std::unique_ptr<Formatter> Make(const std::string& spec, const std::string& timeunit = "") {
  Result<FormatRequest> request = ParseFormatRequest(spec);
  EXPECT_TRUE(request.ok()) << request.status().message();
  if (!request.ok()) return nullptr;
  Result<std::unique_ptr<Formatter>> formatter = MakeFormatter(request.value(), timeunit);
  EXPECT_TRUE(formatter.ok()) << formatter.status().message();
  if (!formatter.ok()) return nullptr;
  return std::move(formatter).value();
}

TEST(MakeFormatterTest, ExtensionPerFormat) {
  const std::pair<const char*, const char*> cases[] = {
      {"column", ".txt"}, {"table", ".txt"}, {"csv", ".csv"},     {"tsv", ".tsv"},
      {"json", ".json"},  {"hdoc", ".html"}, {"htable", ".html"},
  };
  for (const auto& [name, extension] : cases) {
    auto formatter = Make(name);
    ASSERT_NE(formatter, nullptr) << name;
    EXPECT_EQ(formatter->Extension(), extension) << name;
  }
}

TEST(MakeFormatterTest, ArgumentsReachTheFormatter) {
  auto formatter = Make("csv:nohdr:KiB");
  ASSERT_NE(formatter, nullptr);
  EXPECT_EQ(
      formatter->Format(testing::MemSizeTable()),
      "40960.000,10,4096.000,4096.000,4096.000,4096.000,0.000,[CUDA memcpy Host-to-Device]\n");
}

TEST(MakeFormatterTest, TimeunitActsOnEveryFormat) {
  auto csv = Make("csv:nohdr", "msec");
  ASSERT_NE(csv, nullptr);
  EXPECT_EQ(csv->Format(testing::NvtxSumTable()),
            "48.0,213.318,1,213.318,213.318,213.318,213.318,0.000,PushPop,:warmup\n");
  auto column = Make("column:nofmt", "us");
  ASSERT_NE(column, nullptr);
  EXPECT_NE(column->Format(testing::NvtxSumTable()).find("Total Time (us)"), std::string::npos);
  auto explicit_unit = Make("csv:nohdr:s", "msec");  // the format's own argument wins
  ASSERT_NE(explicit_unit, nullptr);
  EXPECT_EQ(explicit_unit->Format(testing::NvtxSumTable()),
            "48.0,0.213,1,0.213,0.213,0.213,0.213,0.000,PushPop,:warmup\n");
}

TEST(MakeFormatterTest, RejectsBadRequests) {
  Result<std::unique_ptr<Formatter>> bad_name = MakeFormatter({"xml", {}}, "");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_EQ(bad_name.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(MakeFormatter({"csv", {"nofmt"}}, "").ok());
  EXPECT_FALSE(MakeFormatter({"csv:nohdr", {}}, "").ok());
  Result<std::unique_ptr<Formatter>> bad_unit = MakeFormatter({"csv", {}}, "m");
  ASSERT_FALSE(bad_unit.ok());
  EXPECT_EQ(bad_unit.status().code(), StatusCode::kInvalidArgument);
}

TEST(FormatHelpTest, OneFormatAllAndUnknown) {
  std::string csv = FormatHelp("csv");
  EXPECT_NE(csv.find("csv[:nohdr][:raw][:<unit>...]"), std::string::npos);
  EXPECT_EQ(csv.find("tsv[:nohdr]"), std::string::npos);
  std::string all = FormatHelp("ALL");
  for (const auto& name : FormatNames()) {
    EXPECT_NE(all.find("\n    " + name + "["), std::string::npos) << name;
  }
  EXPECT_EQ(FormatHelp("all"), all);
  EXPECT_EQ(FormatHelp("xml"), "");
  std::string list = FormatHelp("");
  for (const auto& name : FormatNames()) {
    EXPECT_NE(list.find("\n    " + name + " "), std::string::npos) << name;
  }
}

TEST(FormatHelpTest, ColumnHelpNotesTheNsysVersionDifference) {
  std::string column = FormatHelp("column");
  EXPECT_NE(column.find("2025.3.1"), std::string::npos);
  EXPECT_NE(column.find("2024.6"), std::string::npos);
  EXPECT_NE(column.find("nofmt"), std::string::npos);
  EXPECT_NE(FormatHelp("json").find("escaped"), std::string::npos);
}

}  // namespace
}  // namespace gsys::analysis
