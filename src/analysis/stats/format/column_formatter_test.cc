// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/column_formatter.h"

#include <gtest/gtest.h>

#include "analysis/stats/format/format_test_tables.h"

namespace gsys::analysis {
namespace {

using testing::Dur;
using testing::Mem;
using testing::Plain;
using testing::Ratio;

std::string Column(const ResultTable& table, FormatOptions options = {}) {
  return ColumnFormatter(std::move(options), false).Format(table);
}

FormatOptions NoFmt() {
  FormatOptions options;
  options.nofmt = true;
  return options;
}

// nsys 2025.3.1's console shape, as it prints it: thousands separators, centred headers, every
// line padded to the full width (trailing spaces included; tests/parity).
TEST(ColumnFormatterTest, NvtxSumWithThousandsSeparators) {
  EXPECT_EQ(Column(testing::NvtxSumTable()),
            " Time (%)  Total Time (ns)  Instances    Avg (ns)       Med (ns)      Min (ns)     "
            "Max (ns)    StdDev (ns)   Style    Range \n"
            " --------  ---------------  ---------  -------------  -------------  -----------  "
            "-----------  -----------  -------  -------\n"
            "     48.0      213,318,215          1  213,318,215.0  213,318,215.0  213,318,215  "
            "213,318,215          0.0  PushPop  :warmup\n");
}

// Byte-for-byte the cuda_gpu_mem_time_sum block of the real nsys 2024.6 --stats printout
// (nsys2024.6-nvfuser-hopper-matmul-nvtx.nsys-stats.txt among the nsys fixtures), which
// predates thousands separators, so `nofmt`; that copy lost its trailing spaces, which nsys
// 2025.3.1 prints (tests/parity).
TEST(ColumnFormatterTest, MatchesNsys2024MemTimeSum) {
  ResultTable table;
  table.columns = {Ratio("Time"), Dur("Total Time"), Plain("Count"), Dur("Avg"),        Dur("Med"),
                   Dur("Min"),    Dur("Max"),        Dur("StdDev"),  Plain("Operation")};
  table.rows.push_back({72.6, int64_t{2880}, int64_t{1}, 2880.0, 2880.0, int64_t{2880},
                        int64_t{2880}, 0.0, std::string("[CUDA memcpy Device-to-Host]")});
  table.rows.push_back({27.4, int64_t{1088}, int64_t{1}, 1088.0, 1088.0, int64_t{1088},
                        int64_t{1088}, 0.0, std::string("[CUDA memset]")});
  EXPECT_EQ(Column(table, NoFmt()),
            " Time (%)  Total Time (ns)  Count  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  "
            "StdDev (ns)           Operation          \n"
            " --------  ---------------  -----  --------  --------  --------  --------  "
            "-----------  ----------------------------\n"
            "     72.6             2880      1    2880.0    2880.0      2880      2880          "
            "0.0  [CUDA memcpy Device-to-Host]\n"
            "     27.4             1088      1    1088.0    1088.0      1088      1088          "
            "0.0  [CUDA memset]               \n");
}

// Byte-for-byte the cuda_gpu_mem_size_sum block of the same printout.
TEST(ColumnFormatterTest, MatchesNsys2024MemSizeSum) {
  ResultTable table;
  table.columns = {Mem("Total"), Plain("Count"), Mem("Avg"),    Mem("Med"),
                   Mem("Min"),   Mem("Max"),     Mem("StdDev"), Plain("Operation")};
  table.rows.push_back({int64_t{400}, int64_t{1}, 400.0, 400.0, int64_t{400}, int64_t{400}, 0.0,
                        std::string("[CUDA memset]")});
  table.rows.push_back({int64_t{8}, int64_t{1}, 8.0, 8.0, int64_t{8}, int64_t{8}, 0.0,
                        std::string("[CUDA memcpy Device-to-Host]")});
  EXPECT_EQ(Column(table, NoFmt()),
            " Total (MB)  Count  Avg (MB)  Med (MB)  Min (MB)  Max (MB)  StdDev (MB)           "
            "Operation          \n"
            " ----------  -----  --------  --------  --------  --------  -----------  "
            "----------------------------\n"
            "      0.000      1     0.000     0.000     0.000     0.000        0.000  "
            "[CUDA memset]               \n"
            "      0.000      1     0.000     0.000     0.000     0.000        0.000  "
            "[CUDA memcpy Device-to-Host]\n");
}

ResultTable NameTable(std::vector<std::string> names) {
  ResultTable table;
  table.columns = {Plain("Instances"), Plain("Name")};
  for (auto& name : names) table.rows.push_back({int64_t{1234}, std::move(name)});
  return table;
}

// As in the 2024.6 cuda_gpu_kern_sum block: long names are cut at 99 characters plus "…",
// the column is 100 wide and "Name" is centred over it.
TEST(ColumnFormatterTest, ColmaxCutsLongValues) {
  std::string name(150, 'k');
  std::string out = Column(NameTable({name}));
  std::string expected = " Instances" + std::string(2 + 48, ' ') + "Name" + std::string(48, ' ') +
                         "\n ---------  " + std::string(100, '-') + "\n" + "     1,234  " +
                         std::string(99, 'k') + "\xE2\x80\xA6\n";
  EXPECT_EQ(out, expected);
}

TEST(ColumnFormatterTest, ColmaxArgumentAndUnlimited) {
  FormatOptions options;
  options.colmax = 6;
  EXPECT_EQ(Column(NameTable({"abcdefgh", "abc"}), options),
            " Instances   Name \n"
            " ---------  ------\n"
            "     1,234  abcde\xE2\x80\xA6\n"
            "     1,234  abc   \n");
  options.colmax = 0;
  std::string name(150, 'k');
  EXPECT_NE(Column(NameTable({name}), options).find(name + "\n"), std::string::npos);
}

TEST(ColumnFormatterTest, AutolinesLimitsTheWidthScan) {
  FormatOptions options;
  // Rows after the scanned ones are cut to the scanned width, as nsys 2025.3.1 does.
  options.autolines = 1;
  EXPECT_EQ(Column(NameTable({"ab", "abcdefgh"}), options),
            " Instances  Name\n"
            " ---------  ----\n"
            "     1,234  ab  \n"
            "     1,234  abc\xE2\x80\xA6\n");
  options.autolines = 0;
  EXPECT_EQ(Column(NameTable({"ab", "abcdefgh"}), options),
            " Instances    Name  \n"
            " ---------  --------\n"
            "     1,234  ab      \n"
            "     1,234  abcdefgh\n");
}

TEST(ColumnFormatterTest, WidthArgumentsAutoHideAndFixed) {
  FormatOptions options;
  options.widths = {0, kAutoWidth};
  EXPECT_EQ(Column(NameTable({"abc"}), options), " Name\n ----\n abc \n");
  options.widths = {kAutoWidth, 5};
  EXPECT_EQ(Column(NameTable({"abcdefgh"}), options),
            " Instances  Name \n"
            " ---------  -----\n"
            "     1,234  abcd\xE2\x80\xA6\n");
  options.widths = {3};  // header and numbers are cut too
  EXPECT_EQ(Column(NameTable({"x"}), options),
            " In\xE2\x80\xA6  Name\n"
            " ---  ----\n"
            " 1,\xE2\x80\xA6  x   \n");
}

TEST(ColumnFormatterTest, NohdrDropsHeaderAndItsWidth) {
  FormatOptions options;
  options.nohdr = true;
  EXPECT_EQ(Column(NameTable({"ab"}), options), " 1,234  ab\n");
}

TEST(ColumnFormatterTest, NofmtKeepsPlainNumbers) {
  EXPECT_EQ(Column(NameTable({"ab"}), NoFmt()),
            " Instances  Name\n"
            " ---------  ----\n"
            "      1234  ab  \n");
}

TEST(ColumnFormatterTest, HiddenColumnsNullsAndNegativeNumbers) {
  ResultTable table;
  table.columns = {Plain("A"), testing::Hidden("_Q1"), Plain("Bee")};
  table.rows.push_back({int64_t{-1234567}, int64_t{5}, Cell{}});
  table.rows.push_back({Cell{}, int64_t{5}, std::string("t")});
  EXPECT_EQ(Column(table),
            "     A       Bee\n"
            " ----------  ---\n"
            " -1,234,567     \n"
            "             t  \n");
}

TEST(ColumnFormatterTest, EmptyTableHasHeaderOnly) {
  ResultTable table = testing::MemSizeTable();
  table.rows.clear();
  EXPECT_EQ(Column(table),
            " Total (MB)  Count  Avg (MB)  Med (MB)  Min (MB)  Max (MB)  StdDev (MB)  Operation\n"
            " ----------  -----  --------  --------  --------  --------  -----------  ---------\n");
  EXPECT_EQ(Column(ResultTable{}), "");
}

TEST(ColumnFormatterTest, UnicodeWidthCountsCharacters) {
  EXPECT_EQ(Column(NameTable({"\xC3\xA9t\xC3\xA9"})),
            " Instances  Name\n"
            " ---------  ----\n"
            "     1,234  \xC3\xA9t\xC3\xA9 \n");
}

// A name from a hostile report cannot drive the terminal or forge a line of its own.
TEST(ColumnFormatterTest, ControlCharactersInNamesAreEscaped) {
  std::string out = Column(NameTable({"k\x1b]0;owned\x07\r\ngsys: forged\xc2\x9b"}));
  EXPECT_EQ(out,
            " Instances                   Name                  \n"
            " ---------  ---------------------------------------\n"
            "     1,234  k\\e]0;owned\\x07\\r\\ngsys: forged\\xc2\\x9b\n");
  EXPECT_EQ(ColumnFormatter({}, true).Format(NameTable({"a\tb"})).find('\t'), std::string::npos);
}

TEST(TableFormatterTest, DrawsGridLines) {
  std::string out = ColumnFormatter({}, true).Format(NameTable({"ab", "abcdef"}));
  EXPECT_EQ(out,
            "+-----------+--------+\n"
            "| Instances |  Name  |\n"
            "+===========+========+\n"
            "|     1,234 | ab     |\n"
            "+-----------+--------+\n"
            "|     1,234 | abcdef |\n"
            "+-----------+--------+\n");
  FormatOptions options;
  options.nohdr = true;
  EXPECT_EQ(ColumnFormatter(options, true).Format(NameTable({"ab"})),
            "+-------+----+\n"
            "| 1,234 | ab |\n"
            "+-------+----+\n");
  EXPECT_EQ(ColumnFormatter({}, true).Extension(), ".txt");
}

}  // namespace
}  // namespace gsys::analysis
