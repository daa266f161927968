// SPDX-License-Identifier: Apache-2.0
// The markup of each block type: what is drawn, where, and the caps.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "html/blocks.h"
#include "html/page.h"

namespace gsys::html {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(HtmlTable, HeadersCellsAndNumericColumns) {
  Table t{"T", {{"Name", false}, {"Time", true}}, {{"k1", "1,234"}, {"k2"}}};
  std::string html = RenderTable(t);
  EXPECT_NE(html.find("<table class=\"sortable\">"), std::string::npos);
  EXPECT_NE(html.find("<th tabindex=\"0\">Name</th><th class=\"num\" tabindex=\"0\">Time</th>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>k1</td><td class=\"num\">1,234</td></tr>"), std::string::npos);
  // A short row is padded with empty cells, so columns stay aligned.
  EXPECT_NE(html.find("<tr><td>k2</td><td class=\"num\"></td></tr>"), std::string::npos);
  EXPECT_EQ(Count(html, "class=\"note\""), 0u);
}

TEST(HtmlTable, RowsAreCapped) {
  Table t{"T", {{"i", true}}, {}};
  for (int i = 0; i < 2500; ++i) t.rows.push_back({std::to_string(i)});
  std::string html = RenderTable(t);
  EXPECT_EQ(Count(html, "<tr>"), kMaxTableRows + 1);  // + the header row
  EXPECT_NE(html.find(">999</td>"), std::string::npos);
  EXPECT_EQ(html.find(">1000</td>"), std::string::npos);
  EXPECT_NE(html.find("Showing the first 1,000 of 2,500 rows."), std::string::npos);
  EXPECT_NE(RenderTable(Table{"T", {{"i", true}}, {}}).find("No rows."), std::string::npos);
}

TEST(HtmlHeatMap, OneRectPerRunOfEqualValues) {
  HeatMap m{
      "GPU use", {"GPU 0", "GPU 1"}, {0, 0.5, 1.0, 1.5}, {{0, 0, 100, 100}, {10, 20, 30, 40}}};
  std::string html = RenderHeatMap(m, "b7");
  // GPU 0: two runs (0 %, 100 %); GPU 1: four cells.
  EXPECT_EQ(Count(html, "<rect x="), 2u + 4u + 1u);  // + the color scale
  EXPECT_NE(html.find("<title>GPU 0, 0 s to 1 s: 0 %</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>GPU 0, 1 s to 2 s: 100 %</title>"), std::string::npos);
  EXPECT_NE(html.find("fill=\"#084594\""), std::string::npos);  // 100 % is the darkest color
  EXPECT_NE(html.find("<linearGradient id=\"b7-scale\">"), std::string::npos);
  EXPECT_NE(html.find("fill=\"url(#b7-scale)\""), std::string::npos);
  EXPECT_NE(html.find(">Time (s)</text>"), std::string::npos);
  EXPECT_NE(html.find(">GPU 1</text>"), std::string::npos);
  EXPECT_EQ(html.find("no data"), std::string::npos);
}

TEST(HtmlHeatMap, MissingValuesAndCaps) {
  HeatMap m{"x", {"r"}, {0, 1, 2}, {{NAN, 50}}};  // the third bin has no value either
  std::string html = RenderHeatMap(m, "b0");
  EXPECT_NE(html.find(": no data</title>"), std::string::npos);
  EXPECT_NE(html.find(">no data</text>"), std::string::npos);

  HeatMap big{"big", {}, {}, {}};
  for (size_t b = 0; b < 4 * kMaxHeatMapBins; ++b) big.bin_starts_s.push_back(b * 0.001);
  for (size_t r = 0; r < kMaxHeatMapRows + 10; ++r) {
    big.row_labels.push_back("rank " + std::to_string(r));
    std::vector<double> row;
    for (size_t b = 0; b < big.bin_starts_s.size(); ++b) row.push_back(b % 2 ? 100 : 0);
    big.values.push_back(row);
  }
  std::string capped = RenderHeatMap(big, "b1");
  EXPECT_NE(capped.find("Showing the first 256 of 266 rows."), std::string::npos);
  EXPECT_NE(capped.find("Each cell averages 16 adjacent bins of 0.001 s."), std::string::npos);
  EXPECT_EQ(capped.find(">rank 256<"), std::string::npos);
  // Alternating 0/100 averages to a flat 50 %: one rect per row.
  EXPECT_EQ(Count(capped, "<rect x="), kMaxHeatMapRows + 1);
  EXPECT_LT(capped.size(), 200u * 1024);
  EXPECT_NE(RenderHeatMap(HeatMap{}, "b2").find("No data."), std::string::npos);
}

TEST(HtmlLineChart, PolylinePerSeriesWithLegend) {
  LineChart c{"Pace",
              "Iteration",
              "Duration (ms)",
              {{"rank 0", {0, 1, 2}, {10, 20, 30}}, {"rank 1", {0, 1, 2}, {10, NAN, 40}}}};
  std::string html = RenderLineChart(c);
  EXPECT_EQ(Count(html, "<polyline"), 2u);
  EXPECT_EQ(Count(html, "<circle"), 5u);  // the NaN point is skipped
  EXPECT_NE(html.find("<span><i style=\"background:#4e79a7\"></i>rank 0</span>"),
            std::string::npos);
  EXPECT_NE(html.find("<span><i style=\"background:#f28e2b\"></i>rank 1</span>"),
            std::string::npos);
  EXPECT_NE(html.find(">Duration (ms)</text>"), std::string::npos);
  EXPECT_NE(html.find(">Iteration</text>"), std::string::npos);
  // x ticks 0..2 map to the plot's left and right edges (72 .. 960-20).
  EXPECT_NE(html.find("points=\"72,"), std::string::npos);
  EXPECT_NE(html.find(" 940,"), std::string::npos);
  EXPECT_NE(RenderLineChart(LineChart{}).find("No data."), std::string::npos);
}

TEST(HtmlLineChart, LongSeriesAreSampled) {
  LineSeries s{"s", {}, {}};
  for (int i = 0; i < 10000; ++i) s.x.push_back(i), s.y.push_back(i % 7);
  std::string html = RenderLineChart(LineChart{"t", "x", "y", {s}});
  size_t at = html.find("points=\"");
  size_t end = html.find('"', at + 8);
  EXPECT_EQ(Count(html.substr(at, end - at), ","), kMaxLinePoints);
  EXPECT_EQ(Count(html, "<circle"), 0u);
  EXPECT_NE(html.find("drawn from evenly spaced samples"), std::string::npos);
}

TEST(HtmlBarChart, OneBarPerLabelAndCap) {
  BarChart c{"Top kernels", "Time (ns)", {"a", "b", "c"}, {300, 100, 0}};
  std::string html = RenderBarChart(c);
  EXPECT_EQ(Count(html, "<rect"), 3u);
  EXPECT_NE(html.find("<title>a: 300</title>"), std::string::npos);
  EXPECT_NE(html.find(">Time (ns)</text>"), std::string::npos);
  BarChart many{"m", "v", {}, {}};
  for (size_t i = 0; i < kMaxBars + 5; ++i) many.labels.push_back("k"), many.values.push_back(1);
  std::string capped = RenderBarChart(many);
  EXPECT_EQ(Count(capped, "<rect"), kMaxBars);
  EXPECT_NE(capped.find("Showing the first 50 of 55 bars."), std::string::npos);
  EXPECT_NE(RenderBarChart(BarChart{}).find("No data."), std::string::npos);
}

}  // namespace
}  // namespace gsys::html
