// SPDX-License-Identifier: Apache-2.0
// Bar charts as inline SVG: horizontal bars (long labels such as kernel names stay readable),
// one per label, in the given order, with the value at the end of each bar.
#include <algorithm>
#include <cmath>

#include "html/blocks.h"
#include "html/markup.h"

namespace gsys::html {
namespace {

constexpr double kBarStep = 24, kBarHeight = 18, kTop = 8, kValueRoom = 90;
constexpr size_t kLabelChars = 40;

std::string Label(double x, double y, const char* anchor, const std::string& text,
                  const std::string& extra = "") {
  return "<text x=\"" + Coord(x) + "\" y=\"" + Coord(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + Escape(text) + "</text>";
}

}  // namespace

std::string RenderBarChart(const BarChart& chart) {
  size_t total = std::min(chart.labels.size(), chart.values.size());
  size_t n = std::min(total, kMaxBars);
  if (n == 0) return Note("No data.");
  double vmin = 0, vmax = 0;
  size_t longest = 0;
  std::vector<std::string> shown = ShortLabels(
      std::vector<std::string>(chart.labels.begin(), chart.labels.begin() + n), kLabelChars);
  for (size_t i = 0; i < n; ++i) {
    double v = chart.values[i];
    if (std::isfinite(v)) vmin = std::min(vmin, v), vmax = std::max(vmax, v);
    longest = std::max(longest, std::min(shown[i].size(), kLabelChars));
  }
  std::vector<double> ticks = NiceTicks(vmin, vmax, 6);
  double d0 = ticks.front(), d1 = ticks.back();
  double left = LabelWidth(longest), plot_w = kChartWidth - left - kValueRoom;
  double plot_h = kBarStep * static_cast<double>(n);
  double height = kTop + plot_h + 48;
  auto px = [&](double v) { return left + (v - d0) / (d1 - d0) * plot_w; };

  std::string out = "<svg class=\"chart bar\" role=\"img\" width=\"" + Coord(kChartWidth) +
                    "\" height=\"" + Coord(height) + "\" viewBox=\"0 0 " + Coord(kChartWidth) +
                    " " + Coord(height) + "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out += "<title>" + Escape(chart.title) + "</title>\n";
  double axis_y = kTop + plot_h;
  for (double t : ticks) {
    out += "<line class=\"grid\" x1=\"" + Coord(px(t)) + "\" y1=\"" + Coord(kTop) + "\" x2=\"" +
           Coord(px(t)) + "\" y2=\"" + Coord(axis_y) + "\"/>" +
           Label(px(t), axis_y + 16, "middle", HumanNumber(t)) + "\n";
  }
  for (size_t i = 0; i < n; ++i) {
    double v = std::isfinite(chart.values[i]) ? chart.values[i] : 0;
    double y = kTop + kBarStep * static_cast<double>(i);
    double a = px(std::min(0.0, v)), b = px(std::max(0.0, v));
    // The full name rides along: the page's script shortens a label further if its glyphs are
    // wider than LabelWidth assumed, so that none runs off the chart's left edge.
    out += Label(left - 6, y + kBarHeight / 2 + 4, "end", shown[i],
                 " class=\"label\" data-full=\"" + Escape(chart.labels[i]) + "\"");
    out += "<rect x=\"" + Coord(a) + "\" y=\"" + Coord(y) + "\" width=\"" +
           Coord(std::max(b - a, 1.0)) + "\" height=\"" + Coord(kBarHeight) + "\" fill=\"" +
           SeriesColor(0) + "\"><title>" + Escape(chart.labels[i]) + ": " +
           Escape(HumanNumber(chart.values[i])) + "</title></rect>";
    out += Label(b + 4, y + kBarHeight / 2 + 4, "start", HumanNumber(chart.values[i])) + "\n";
  }
  out += "<line class=\"axis\" x1=\"" + Coord(px(0)) + "\" y1=\"" + Coord(kTop) + "\" x2=\"" +
         Coord(px(0)) + "\" y2=\"" + Coord(axis_y) + "\"/>\n";
  out += Label(left + plot_w / 2, axis_y + 36, "middle", chart.y_label, " class=\"axis-title\"");
  out += "\n</svg>\n";
  if (n < total) {
    out +=
        Note("Showing the first " + std::to_string(n) + " of " + std::to_string(total) + " bars.");
  }
  return out;
}

}  // namespace gsys::html
