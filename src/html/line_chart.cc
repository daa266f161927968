// SPDX-License-Identifier: Apache-2.0
// Line charts as inline SVG: one polyline per series over shared x and y axes with grid lines,
// and an HTML legend under the chart.
#include <algorithm>
#include <cmath>

#include "html/blocks.h"
#include "html/markup.h"

namespace gsys::html {
namespace {

constexpr double kHeight = 320, kLeft = 72, kRight = 20, kTop = 12, kBottom = 46;

// Indices of the points drawn: all finite points, or kMaxLinePoints of them evenly spaced
// (first and last kept) when there are more.
std::vector<size_t> DrawnPoints(const LineSeries& s, bool* sampled) {
  std::vector<size_t> finite;
  for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) finite.push_back(i);
  }
  if (finite.size() <= kMaxLinePoints) return finite;
  *sampled = true;
  std::vector<size_t> out;
  for (size_t k = 0; k < kMaxLinePoints; ++k) {
    out.push_back(finite[k * (finite.size() - 1) / (kMaxLinePoints - 1)]);
  }
  return out;
}

std::string Line(double x1, double y1, double x2, double y2, const char* cls) {
  return "<line class=\"" + std::string(cls) + "\" x1=\"" + Coord(x1) + "\" y1=\"" + Coord(y1) +
         "\" x2=\"" + Coord(x2) + "\" y2=\"" + Coord(y2) + "\"/>";
}

std::string Label(double x, double y, const char* anchor, const std::string& text,
                  const std::string& extra = "") {
  return "<text x=\"" + Coord(x) + "\" y=\"" + Coord(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + Escape(text) + "</text>";
}

}  // namespace

std::string RenderLineChart(const LineChart& chart) {
  bool sampled = false;
  std::vector<std::vector<size_t>> drawn;
  double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = -INFINITY;
  for (const auto& s : chart.series) {
    drawn.push_back(DrawnPoints(s, &sampled));
    for (size_t i : drawn.back()) {
      xmin = std::min(xmin, s.x[i]), xmax = std::max(xmax, s.x[i]);
      ymin = std::min(ymin, s.y[i]), ymax = std::max(ymax, s.y[i]);
    }
  }
  if (!std::isfinite(xmin)) return Note("No data.");
  std::vector<double> xt = NiceTicks(xmin, xmax, 8), yt = NiceTicks(ymin, ymax, 6);
  double x0 = xt.front(), x1 = xt.back(), y0 = yt.front(), y1 = yt.back();
  double plot_w = kChartWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x - x0) / (x1 - x0) * plot_w; };
  auto py = [&](double y) { return kTop + plot_h - (y - y0) / (y1 - y0) * plot_h; };

  std::string out = "<svg class=\"chart line\" role=\"img\" width=\"" + Coord(kChartWidth) +
                    "\" height=\"" + Coord(kHeight) + "\" viewBox=\"0 0 " + Coord(kChartWidth) +
                    " " + Coord(kHeight) + "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out += "<title>" + Escape(chart.title) + "</title>\n";
  for (double y : yt) {
    out += Line(kLeft, py(y), kLeft + plot_w, py(y), y == y0 ? "axis" : "grid") +
           Label(kLeft - 6, py(y) + 4, "end", HumanNumber(y)) + "\n";
  }
  for (double x : xt) {
    out += Line(px(x), kTop + plot_h, px(x), kTop + plot_h + 4, "axis") +
           Label(px(x), kTop + plot_h + 17, "middle", HumanNumber(x)) + "\n";
  }
  out += Line(kLeft, kTop, kLeft, kTop + plot_h, "axis") + "\n";
  out += Label(kLeft + plot_w / 2, kHeight - 8, "middle", chart.x_label, " class=\"axis-title\"");
  out +=
      Label(14, kTop + plot_h / 2, "middle", chart.y_label,
            " class=\"axis-title\" transform=\"rotate(-90 14 " + Coord(kTop + plot_h / 2) + ")\"");
  out += "\n";
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const auto& s = chart.series[k];
    std::string color = SeriesColor(k);
    std::string points;
    for (size_t i : drawn[k]) points += Coord(px(s.x[i])) + "," + Coord(py(s.y[i])) + " ";
    if (!points.empty()) points.pop_back();
    out += "<g class=\"series\"><title>" + Escape(s.name) + "</title>";
    out += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" +
           points + "\"/>";
    if (drawn[k].size() <= 60) {  // few points: mark each one
      for (size_t i : drawn[k]) {
        out += "<circle cx=\"" + Coord(px(s.x[i])) + "\" cy=\"" + Coord(py(s.y[i])) +
               "\" r=\"3\" fill=\"" + color + "\"><title>" + Escape(s.name) + ": (" +
               HumanNumber(s.x[i]) + ", " + HumanNumber(s.y[i]) + ")</title></circle>";
      }
    }
    out += "</g>\n";
  }
  out += "</svg>\n<div class=\"legend\">";
  for (size_t k = 0; k < chart.series.size(); ++k) {
    out += "<span><i style=\"background:" + SeriesColor(k) + "\"></i>" +
           Escape(chart.series[k].name) + "</span>";
  }
  out += "</div>\n";
  if (sampled) {
    out += Note("Series longer than " + std::to_string(kMaxLinePoints) +
                " points are drawn from evenly spaced samples.");
  }
  return out;
}

}  // namespace gsys::html
