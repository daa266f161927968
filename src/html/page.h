// SPDX-License-Identifier: Apache-2.0
// Self-contained HTML pages for gsys's analyses (`gsys summary`, `gsys recipe`): paragraphs,
// sortable tables and charts drawn as inline SVG. A page needs no network and no file beside it:
// its CSS and its few lines of JavaScript are inline. Every text is escaped, so names taken from
// a report (kernel names, NVTX ranges) can hold <, >, & or quotes.
//
// Size caps (a page never grows huge by accident; each cap shows a note where it applies):
//   a table shows at most kMaxTableRows rows; a heat map at most kMaxHeatMapRows rows and
//   kMaxHeatMapBins bins (adjacent bins are averaged); a line series at most kMaxLinePoints points
//   (evenly sampled, keeping the first and last); a bar chart at most kMaxBars bars; a timeline
//   at most kMaxTimelineEvents events (timeline.h).
#pragma once

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "html/timeline.h"

namespace gsys::html {

inline constexpr size_t kMaxTableRows = 1000;
inline constexpr size_t kMaxHeatMapRows = 256;
inline constexpr size_t kMaxHeatMapBins = 500;
inline constexpr size_t kMaxLinePoints = 2000;
inline constexpr size_t kMaxBars = 50;

struct Column {
  std::string name;
  bool numeric = false;  // right-aligned; sorts by value ("1,234.5" reads as 1234.5)
};

struct Table {
  std::string title;
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;  // cells as displayed; a short row leaves blanks
};

// Busy fraction (or any 0..100 quantity) per row and time bin: rows are GPUs, ranks, streams.
struct HeatMap {
  std::string title;
  std::vector<std::string> row_labels;
  std::vector<double> bin_starts_s;         // start of each bin in seconds (the x axis)
  std::vector<std::vector<double>> values;  // rows x bins, 0..100; NaN = no data
  std::string unit = "%";
};

struct LineSeries {
  std::string name;
  std::vector<double> x, y;  // same length; non-finite points are skipped
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<LineSeries> series;
};

struct BarChart {
  std::string title, y_label;
  std::vector<std::string> labels;
  std::vector<double> values;  // one per label
};

using Block =
    std::variant<std::string /*paragraph*/, Table, HeatMap, LineChart, BarChart, Timeline>;

struct Page {
  std::string title, subtitle;
  std::vector<Block> blocks;
  // What made the page (gsys version, command line, input), shown in its footer; empty: none.
  std::string provenance;
  // What in the input cannot be taken at face value (report/reader/data_check.h: dropped
  // records, damaged rows, nsys's notes about its capture), one sentence each, shown in a
  // banner above the first block so the page never looks normal when its data is not.
  std::vector<std::string> warnings;
};

// One self-contained HTML5 document (UTF-8), no network needed to open it.
std::string RenderPage(const Page& page);

}  // namespace gsys::html
