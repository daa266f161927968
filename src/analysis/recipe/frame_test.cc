// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/frame.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gsys::analysis::recipe {
namespace {

Frame Sample() {
  Frame f;
  f.columns = {"Name", "Count", "Mean"};
  f.rows.push_back({std::string("a,\"b\""), int64_t{3}, 2.5});
  f.rows.push_back({std::string("plain"), std::monostate{}, 1.0 / 3.0});
  f.rows.push_back({std::string("line\nbreak"), int64_t{-7}, std::nan("")});
  return f;
}

TEST(FrameTest, CsvQuotesAndFormatsCells) {
  EXPECT_EQ(ToCsv(Sample()),
            "Name,Count,Mean\n\"a,\"\"b\"\"\",3,2.5\nplain,,0.3333333333333333\n"
            "\"line\nbreak\",-7,\n");
  EXPECT_EQ(CellText(Cell(3.0)), "3.0");
}

TEST(FrameTest, CsvRoundTrips) {
  auto parsed = ParseCsv(ToCsv(Sample()));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->columns, Sample().columns);
  ASSERT_EQ(parsed->rows.size(), 3u);
  EXPECT_EQ(std::get<std::string>(parsed->rows[0][0]), "a,\"b\"");
  EXPECT_EQ(std::get<int64_t>(parsed->rows[0][1]), 3);
  EXPECT_DOUBLE_EQ(std::get<double>(parsed->rows[0][2]), 2.5);
  EXPECT_EQ(std::get<std::string>(parsed->rows[2][0]), "line\nbreak");
}

// The user's output CSVs get OWASP's leading quote on formula-like text; numbers never change,
// a spilled record rewritten later is byte-identical to the row written neutralised at once,
// and reading a neutralised file gives the original text back.
TEST(FrameTest, NeutralisedCsvPrefixesFormulaTextOnly) {
  Frame f;
  f.columns = {"=Name", "Value"};
  f.rows.push_back({std::string("=HYPERLINK(\"http://x\",\"y\")"), int64_t{-5}});
  f.rows.push_back({std::string("--layer:/fc"), -1.5});
  f.rows.push_back({std::string("@SUM(A1)"), std::string("-5")});
  f.rows.push_back({std::string("plain"), std::monostate{}});
  const std::string neutralised = ToCsv(f, CsvText::kNeutralised);
  EXPECT_EQ(neutralised,
            "=Name,Value\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-5\n'--layer:/fc,-1.5\n"
            "'@SUM(A1),-5\nplain,\n");
  std::string raw = ToCsv(f);
  EXPECT_EQ(raw.substr(0, raw.find("\n")), "=Name,Value");
  EXPECT_NE(raw, neutralised);
  std::string rewritten = "=Name,Value\n";
  size_t begin = raw.find('\n') + 1;
  for (size_t end; (end = raw.find('\n', begin)) != std::string::npos; begin = end + 1) {
    // No record of this frame holds a line break, so lines are records.
    AppendNeutralisedRecord(&rewritten, std::string_view(raw).substr(begin, end - begin));
    rewritten += '\n';
  }
  EXPECT_EQ(rewritten, neutralised);
  auto back = ParseCsv(neutralised, CsvText::kNeutralised);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->rows.size(), 4u);
  EXPECT_EQ(std::get<std::string>(back->rows[0][0]), "=HYPERLINK(\"http://x\",\"y\")");
  EXPECT_EQ(std::get<std::string>(back->rows[1][0]), "--layer:/fc");
  EXPECT_EQ(std::get<std::string>(back->rows[2][0]), "@SUM(A1)");
  EXPECT_EQ(std::get<int64_t>(back->rows[2][1]), -5);
  auto as_is = ParseCsv(neutralised);
  ASSERT_TRUE(as_is.ok());
  EXPECT_EQ(std::get<std::string>(as_is->rows[2][0]), "'@SUM(A1)");
}

TEST(FrameTest, BundleEncodingIsLossless) {
  Bundle b{{"t", Sample()}, {"empty", Frame{}}};
  auto back = DecodeBundle(EncodeBundle(b));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ToCsv(back->at("t")), ToCsv(Sample()));
  EXPECT_EQ(std::get<double>(back->at("t").rows[1][2]), 1.0 / 3.0);
  EXPECT_FALSE(DecodeBundle(EncodeBundle(b).substr(0, 20)).ok());
}

TEST(FrameTest, Round1IsHalfToEven) {
  EXPECT_DOUBLE_EQ(Round1(2.25), 2.2);
  EXPECT_DOUBLE_EQ(Round1(2.35), 2.4);
  EXPECT_DOUBLE_EQ(Round1(-1.04), -1.0);
}

}  // namespace
}  // namespace gsys::analysis::recipe
