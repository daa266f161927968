// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/delimited_formatter.h"

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/stats/format/format_test_tables.h"

namespace gsys::analysis {
namespace {

using testing::Dur;
using testing::Plain;

std::string Csv(const ResultTable& table, FormatOptions options = {}) {
  return DelimitedFormatter(std::move(options), false).Format(table);
}

std::string Tsv(const ResultTable& table, FormatOptions options = {}) {
  return DelimitedFormatter(std::move(options), true).Format(table);
}

// CSV lines as nsys 2025.3.1 prints them (copied from its output).
TEST(CsvFormatterTest, MemSizeSumMatchesNsys) {
  EXPECT_EQ(Csv(testing::MemSizeTable()),
            "Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation\n"
            "41.943,10,4.194,4.194,4.194,4.194,0.000,[CUDA memcpy Host-to-Device]\n");
}

TEST(CsvFormatterTest, NvtxSumMatchesNsysAndHidesUnderscoreColumns) {
  EXPECT_EQ(Csv(testing::NvtxSumTable()),
            "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),"
            "Style,Range\n"
            "48.0,213318215,1,213318215.0,213318215.0,213318215,213318215,0.0,PushPop,:warmup\n");
}

TEST(CsvFormatterTest, QuotesCommasQuotesAndLineBreaks) {
  ResultTable table;
  table.columns = {Plain("Name, full"), Plain("N")};
  table.rows.push_back({std::string("void f<int, float>(int)"), int64_t{1}});
  table.rows.push_back({std::string("say \"hi\""), int64_t{2}});
  table.rows.push_back({std::string("two\nlines"), Cell{}});
  EXPECT_EQ(Csv(table),
            "\"Name, full\",N\n"
            "\"void f<int, float>(int)\",1\n"
            "\"say \"\"hi\"\"\",2\n"
            "\"two\nlines\",\n");
}

TEST(CsvFormatterTest, NohdrUnitsAndNoconv) {
  FormatOptions options;
  options.nohdr = true;
  options.units.dur = "ms";
  options.units.mem = "KiB";
  EXPECT_EQ(
      Csv(testing::MemSizeTable(), options),
      "40960.000,10,4096.000,4096.000,4096.000,4096.000,0.000,[CUDA memcpy Host-to-Device]\n");
  EXPECT_EQ(Csv(testing::NvtxSumTable(), options),
            "48.0,213.318,1,213.318,213.318,213.318,213.318,0.000,PushPop,:warmup\n");
  FormatOptions raw;
  raw.noconv = true;
  raw.nohdrunit = true;
  EXPECT_EQ(Csv(testing::MemSizeTable(), raw),
            "Total,Count,Avg,Med,Min,Max,StdDev,Operation\n"
            "41943040,10,4194304.0,4194304.0,4194304,4194304,0.0,[CUDA memcpy Host-to-Device]\n");
}

// OWASP CSV injection: text cells a spreadsheet would run as formulas get a leading quote;
// numbers, also negative ones, stay as they are; `raw` writes nsys's bytes.
TEST(CsvFormatterTest, FormulaLikeTextIsNeutralisedUnlessRaw) {
  ResultTable table;
  table.columns = {Plain("Name"), Dur("Time"), Plain("Value")};
  table.rows.push_back({std::string("=HYPERLINK(\"http://x\",\"y\")"), int64_t{-5}, -1.5});
  table.rows.push_back({std::string("+cmd"), int64_t{3}, std::string("-5")});
  table.rows.push_back({std::string("-2+3"), int64_t{0}, std::string("@SUM(A1)")});
  table.rows.push_back({std::string("--TensorRT:/fc"), int64_t{1}, -INFINITY});
  EXPECT_EQ(Csv(table),
            "Name,Time (ns),Value\n"
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-5,-1.5\n"
            "'+cmd,3,-5\n"
            "'-2+3,0,'@SUM(A1)\n"
            "'--TensorRT:/fc,1,-inf\n");
  FormatOptions raw;
  raw.raw = true;
  EXPECT_EQ(Csv(table, raw),
            "Name,Time (ns),Value\n"
            "\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-5,-1.5\n"
            "+cmd,3,-5\n"
            "-2+3,0,@SUM(A1)\n"
            "--TensorRT:/fc,1,-inf\n");
}

TEST(CsvFormatterTest, EmptyTableAndShortRows) {
  ResultTable table;
  table.columns = {Plain("A"), Dur("B")};
  EXPECT_EQ(Csv(table), "A,B (ns)\n");
  table.rows.push_back({int64_t{1}});
  EXPECT_EQ(Csv(table), "A,B (ns)\n1,\n");
  EXPECT_EQ(Csv(ResultTable{}), "");
}

TEST(TsvFormatterTest, TabsBecomeSpacesOrEscapes) {
  ResultTable table;
  table.columns = {Plain("Name"), Dur("Total Time")};
  table.rows.push_back({std::string("a\tb, c\nd"), int64_t{1234}});
  EXPECT_EQ(Tsv(table), "Name\tTotal Time (ns)\na b, c d\t1234\n");
  FormatOptions options;
  options.esc = true;
  options.nohdr = true;
  EXPECT_EQ(Tsv(table, options), "a\\tb, c\\nd\t1234\n");
}

TEST(TsvFormatterTest, FormulaLikeTextIsNeutralisedUnlessRaw) {
  ResultTable table;
  table.columns = {Plain("Name"), Dur("Time")};
  table.rows.push_back({std::string("=cmd|' /C calc'!A0"), int64_t{-5}});
  table.rows.push_back({std::string("-1.5"), int64_t{2}});
  table.rows.push_back({std::string("\t@x"), int64_t{3}});
  EXPECT_EQ(Tsv(table), "Name\tTime (ns)\n'=cmd|' /C calc'!A0\t-5\n-1.5\t2\n' @x\t3\n");
  FormatOptions raw;
  raw.raw = true;
  raw.nohdr = true;
  EXPECT_EQ(Tsv(table, raw), "=cmd|' /C calc'!A0\t-5\n-1.5\t2\n @x\t3\n");
}

TEST(TsvFormatterTest, NvtxSumRow) {
  FormatOptions options;
  options.nohdr = true;
  EXPECT_EQ(Tsv(testing::NvtxSumTable(), options),
            "48.0\t213318215\t1\t213318215.0\t213318215.0\t213318215\t213318215\t0.0\tPushPop\t"
            ":warmup\n");
}

TEST(DelimitedFormatterTest, Extensions) {
  EXPECT_EQ(DelimitedFormatter({}, false).Extension(), ".csv");
  EXPECT_EQ(DelimitedFormatter({}, true).Extension(), ".tsv");
}

}  // namespace
}  // namespace gsys::analysis
