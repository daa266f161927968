// SPDX-License-Identifier: Apache-2.0
// One renderer per block type; each returns the block's HTML (without its section heading).
// `id` is unique within the page and prefixes any id the block defines (e.g. SVG gradients).
// Internal to src/html; RenderPage (page.cc) assembles them.
#pragma once

#include <string>

#include "html/page.h"

namespace gsys::html {

std::string RenderTable(const Table& table);
std::string RenderHeatMap(const HeatMap& map, const std::string& id);
std::string RenderLineChart(const LineChart& chart);
std::string RenderBarChart(const BarChart& chart);
std::string RenderTimeline(const Timeline& timeline, const std::string& id);

// A note under a block (e.g. a cap that applied), escaped.
std::string Note(const std::string& text);

// Width in px reserved for labels of up to `chars` characters at the charts' 11px font.
double LabelWidth(size_t chars);

inline constexpr double kChartWidth = 960;  // px; charts scale down with the window (CSS)

}  // namespace gsys::html
