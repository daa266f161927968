// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/cell_renderer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "analysis/stats/format/format_test_tables.h"

namespace gsys::analysis {
namespace {

using testing::Dur;
using testing::Mem;
using testing::Plain;
using testing::Ratio;

Column Of(UnitCategory category, std::string base = "") {
  return {"X", category, std::move(base), false};
}

std::string Text(const Column& column, const Cell& cell, const FormatOptions& options = {}) {
  return RenderCell(column, cell, options).text;
}

FormatOptions WithUnits(void (*set)(DisplayUnits&)) {
  FormatOptions options;
  set(options.units);
  return options;
}

TEST(HeaderTextTest, UnitPerCategory) {
  FormatOptions options;
  EXPECT_EQ(HeaderText(Dur("Total Time"), options), "Total Time (ns)");
  EXPECT_EQ(HeaderText({"Start", UnitCategory::kTs, "ns", false}, options), "Start (ns)");
  EXPECT_EQ(HeaderText(Mem("Total"), options), "Total (MB)");
  EXPECT_EQ(HeaderText({"Throughput", UnitCategory::kThru, "B", false}, options),
            "Throughput (MB/s)");
  EXPECT_EQ(HeaderText({"Throughput", UnitCategory::kThru, "B/s", false}, options),
            "Throughput (MB/s)");
  EXPECT_EQ(HeaderText(Ratio("Time"), options), "Time (%)");
  EXPECT_EQ(HeaderText(Plain("Count"), options), "Count");
  EXPECT_EQ(HeaderText({"Pid", UnitCategory::kGid, "", false}, options), "Pid");
  EXPECT_EQ(HeaderText({"Virtual Address", UnitCategory::kAddr, "uint", false}, options),
            "Virtual Address");
}

TEST(HeaderTextTest, FollowsDisplayUnitNoconvAndNohdrunit) {
  FormatOptions options;
  options.units.dur = "us";
  options.units.thru = "GiB";
  EXPECT_EQ(HeaderText(Dur("Avg"), options), "Avg (us)");
  EXPECT_EQ(HeaderText({"Throughput", UnitCategory::kThru, "B", false}, options),
            "Throughput (GiB/s)");
  options.noconv = true;
  EXPECT_EQ(HeaderText(Dur("Avg"), options), "Avg (ns)");
  EXPECT_EQ(HeaderText(Mem("Total"), options), "Total (B)");
  EXPECT_EQ(HeaderText({"Throughput", UnitCategory::kThru, "B", false}, options),
            "Throughput (B/s)");
  options.nohdrunit = true;
  EXPECT_EQ(HeaderText(Dur("Avg"), options), "Avg");
}

TEST(RenderCellTest, NanosecondsKeepIntegersAndOneDecimal) {
  EXPECT_EQ(Text(Dur("T"), int64_t{213318215}), "213318215");
  EXPECT_EQ(Text(Dur("T"), 213318215.0), "213318215.0");
  EXPECT_EQ(Text(Dur("T"), 640795.5), "640795.5");
  EXPECT_EQ(Text(Dur("T"), 222062.66666), "222062.7");
  RenderedCell cell = RenderCell(Dur("T"), int64_t{5}, {});
  EXPECT_TRUE(cell.numeric);
  EXPECT_TRUE(cell.groupable);
}

TEST(RenderCellTest, ConvertedTimeHasThreeDecimals) {
  FormatOptions us = WithUnits([](DisplayUnits& u) { u.dur = "us"; });
  FormatOptions ms = WithUnits([](DisplayUnits& u) { u.dur = "ms"; });
  FormatOptions s = WithUnits([](DisplayUnits& u) { u.dur = "s"; });
  EXPECT_EQ(Text(Dur("T"), int64_t{213318215}, us), "213318.215");
  EXPECT_EQ(Text(Dur("T"), 640795.5, us), "640.796");
  EXPECT_EQ(Text(Dur("T"), int64_t{213318215}, ms), "213.318");
  EXPECT_EQ(Text(Dur("T"), int64_t{213318215}, s), "0.213");
  FormatOptions ts_ms = WithUnits([](DisplayUnits& u) { u.ts = "ms"; });
  EXPECT_EQ(Text(Of(UnitCategory::kTs, "ns"), int64_t{1500000}, ts_ms), "1.500");
  EXPECT_EQ(Text(Dur("T"), int64_t{1500000}, ts_ms), "1500000");  // dur keeps ns
}

TEST(RenderCellTest, BytesDefaultToMegabytesWithThreeDecimals) {
  EXPECT_EQ(Text(Mem("T"), int64_t{41943040}), "41.943");
  EXPECT_EQ(Text(Mem("T"), 4194304.0), "4.194");
  EXPECT_EQ(Text(Mem("T"), 0.0), "0.000");
  EXPECT_EQ(Text(Mem("T"), int64_t{4}), "0.000");
  EXPECT_EQ(Text(Of(UnitCategory::kThru, "B"), 744726987123.0), "744726.987");
}

TEST(RenderCellTest, EveryByteUnit) {
  const std::pair<const char*, const char*> cases[] = {
      {"B", "4194304"}, {"KB", "4194.304"}, {"KiB", "4096.000"}, {"MB", "4.194"},
      {"MiB", "4.000"}, {"GB", "0.004"},    {"GiB", "0.004"},
  };
  for (const auto& [unit, expected] : cases) {
    FormatOptions options;
    options.units.mem = unit;
    EXPECT_EQ(Text(Mem("T"), int64_t{4194304}, options), expected) << unit;
  }
  FormatOptions bytes;
  bytes.units.mem = "B";
  EXPECT_EQ(Text(Mem("T"), 4194304.0, bytes), "4194304.0");
}

TEST(RenderCellTest, NoconvPrintsBaseValues) {
  FormatOptions options;
  options.noconv = true;
  options.units.dur = "ms";
  EXPECT_EQ(Text(Mem("T"), int64_t{41943040}, options), "41943040");
  EXPECT_EQ(Text(Mem("T"), 4194304.0, options), "4194304.0");
  EXPECT_EQ(Text(Dur("T"), int64_t{213318215}, options), "213318215");
  EXPECT_EQ(Text(Of(UnitCategory::kAddr), int64_t{4096}, options), "4096");
}

TEST(RenderCellTest, RatioPrintsOneDecimal) {
  EXPECT_EQ(Text(Ratio("T"), 48.0), "48.0");
  EXPECT_EQ(Text(Ratio("T"), 33.8), "33.8");
  EXPECT_EQ(Text(Ratio("T"), int64_t{100}), "100");
}

TEST(RenderCellTest, PlainNumbersPrintLikePython) {
  EXPECT_EQ(Text(Plain("N"), int64_t{-42}), "-42");
  EXPECT_EQ(Text(Plain("N"), 2.0), "2.0");
  EXPECT_EQ(Text(Plain("N"), 0.25), "0.25");
  EXPECT_EQ(Text(Plain("N"), 1.5), "1.5");
  EXPECT_EQ(Text(Plain("N"), -3.125), "-3.125");
}

TEST(RenderCellTest, NullAndText) {
  RenderedCell null_cell = RenderCell(Dur("T"), Cell{}, {});
  EXPECT_EQ(null_cell.text, "");
  EXPECT_FALSE(null_cell.numeric);
  RenderedCell text = RenderCell(Plain("Name"), std::string("cudaMalloc"), {});
  EXPECT_EQ(text.text, "cudaMalloc");
  EXPECT_FALSE(text.numeric);
  EXPECT_FALSE(text.groupable);
}

TEST(RenderCellTest, NonFiniteRealsAreText) {
  EXPECT_EQ(Text(Plain("N"), std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(Text(Plain("N"), -std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(Text(Dur("N"), std::nan("")), "nan");
  EXPECT_FALSE(RenderCell(Plain("N"), std::nan(""), {}).numeric);
}

TEST(RenderCellTest, GlobalIds) {
  const Cell gid = int64_t{281482560012740};  // hw 0, vm 1, pid 452, tid 452
  Column column = Of(UnitCategory::kGid);
  EXPECT_EQ(Text(column, gid), "281482560012740");
  EXPECT_TRUE(RenderCell(column, gid, {}).groupable);
  FormatOptions options;
  options.units.gid = "gidhex";
  EXPECT_EQ(Text(column, gid, options), "0x10001c40001c4");
  EXPECT_FALSE(RenderCell(column, gid, options).groupable);
  options.units.gid = "gidsubint";
  EXPECT_EQ(Text(column, gid, options), "0:1:452:452");
  options.units.gid = "gidsubhex";
  EXPECT_EQ(Text(column, gid, options), "0x0:0x1:0x1c4:0x1c4");
}

TEST(RenderCellTest, Addresses) {
  Column column = Of(UnitCategory::kAddr, "uint");
  RenderedCell hex = RenderCell(column, int64_t{0x7f1234500000}, {});
  EXPECT_EQ(hex.text, "0x7f1234500000");
  EXPECT_TRUE(hex.numeric);
  EXPECT_FALSE(hex.groupable);
  FormatOptions options;
  options.units.addr = "uint";
  EXPECT_EQ(Text(column, int64_t{139705918947328}, options), "139705918947328");
  EXPECT_EQ(Text(column, int64_t{-1}), "0xffffffffffffffff");
}

TEST(RenderCellTest, UnknownBaseUnitIsNotConverted) {
  Column column{"Weird", UnitCategory::kMem, "pages", false};
  EXPECT_EQ(Text(column, int64_t{12}), "12");
  EXPECT_EQ(HeaderText(column, {}), "Weird (pages)");
}

TEST(VisibleColumnsTest, SkipsHidden) {
  ResultTable table = testing::NvtxSumTable();
  std::vector<size_t> visible = VisibleColumns(table);
  EXPECT_EQ(visible.size(), 10u);
  EXPECT_EQ(visible.back(), 9u);
}

TEST(TruncateTest, CutsAtCodePoints) {
  EXPECT_EQ(DisplayLength("abc"), 3u);
  EXPECT_EQ(DisplayLength("a\xE2\x80\xA6"), 2u);
  EXPECT_EQ(Truncate("abcdef", 6), "abcdef");
  EXPECT_EQ(Truncate("abcdefg", 6), "abcde\xE2\x80\xA6");
  EXPECT_EQ(Truncate("\xC3\xA9\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xE2\x80\xA6");
  EXPECT_EQ(Truncate("abc", 1), "\xE2\x80\xA6");
  EXPECT_EQ(Truncate("abc", 0), "abc");
}

}  // namespace
}  // namespace gsys::analysis
