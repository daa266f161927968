// SPDX-License-Identifier: Apache-2.0
// Heat maps as inline SVG: one row of cells per label, x = time, color = value (0..100 by
// default), with a time axis and a color scale. Adjacent cells of the same whole value are drawn
// as one rectangle, so long idle or busy stretches cost one element.
#include <algorithm>
#include <cmath>

#include "common/strings.h"
#include "html/blocks.h"
#include "html/markup.h"

namespace gsys::html {
namespace {

constexpr size_t kMaxCells = 32768;  // rows x bins drawn; bins are merged further past this
constexpr size_t kLabelChars = 36;

// The map after the caps: at most kMaxHeatMapRows rows, bins merged by averaging groups of
// adjacent bins so that bins <= kMaxHeatMapBins and rows * bins <= kMaxCells.
struct Grid {
  std::vector<std::string> labels;
  std::vector<double> starts;  // one per bin, plus the end of the last bin
  std::vector<std::vector<double>> values;
  size_t group = 1;  // input bins per drawn bin
  bool rows_capped = false;
};

double BinWidth(const std::vector<double>& starts) {
  for (size_t i = starts.size(); i >= 2; --i) {
    double w = starts[i - 1] - starts[i - 2];
    if (w > 0) return w;
  }
  return 1.0;
}

Grid BuildGrid(const HeatMap& map) {
  Grid g;
  size_t rows = std::min({map.row_labels.size(), map.values.size(), kMaxHeatMapRows});
  g.rows_capped = std::max(map.row_labels.size(), map.values.size()) > rows;
  size_t bins = map.bin_starts_s.size();
  size_t max_bins =
      std::min(kMaxHeatMapBins, std::max<size_t>(1, kMaxCells / std::max<size_t>(rows, 1)));
  g.group = bins > max_bins ? (bins + max_bins - 1) / max_bins : 1;
  for (size_t b = 0; b < bins; b += g.group) g.starts.push_back(map.bin_starts_s[b]);
  g.starts.push_back(bins == 0 ? 0 : map.bin_starts_s.back() + BinWidth(map.bin_starts_s));
  for (size_t r = 0; r < rows; ++r) {
    g.labels.push_back(map.row_labels[r]);
    std::vector<double> row;
    for (size_t b = 0; b < bins; b += g.group) {
      double sum = 0;
      size_t n = 0;
      for (size_t k = b; k < std::min(b + g.group, bins); ++k) {
        double v = k < map.values[r].size() ? map.values[r][k] : NAN;
        if (std::isfinite(v)) sum += v, ++n;
      }
      row.push_back(n ? sum / static_cast<double>(n) : NAN);
    }
    g.values.push_back(std::move(row));
  }
  return g;
}

std::string Text(double x, double y, const std::string& anchor, const std::string& text,
                 const std::string& extra = "") {
  return "<text x=\"" + Coord(x) + "\" y=\"" + Coord(y) + "\" text-anchor=\"" + anchor + "\"" +
         extra + ">" + Escape(text) + "</text>";
}

}  // namespace

double LabelWidth(size_t chars) {
  return std::clamp(6.6 * static_cast<double>(chars) + 14, 60.0, 280.0);
}

std::string RenderHeatMap(const HeatMap& map, const std::string& id) {
  Grid g = BuildGrid(map);
  if (g.values.empty() || g.starts.size() < 2) return Note("No data.");
  bool percent = map.unit == "%";
  double vmax = percent ? 100.0 : 0.0;
  for (const auto& row : g.values) {
    for (double v : row)
      if (std::isfinite(v)) vmax = std::max(vmax, v);
  }
  if (vmax <= 0) vmax = 1;
  size_t longest = 0;
  std::vector<std::string> shown = ShortLabels(g.labels, kLabelChars);
  for (const auto& l : shown) longest = std::max(longest, l.size());
  double left = LabelWidth(std::min(longest, kLabelChars)), right = 24, top = 8;
  double plot_w = kChartWidth - left - right;
  size_t rows = g.values.size();
  double row_h = rows <= 32 ? 20 : rows <= 64 ? 12 : 6;
  double plot_h = row_h * static_cast<double>(rows);
  double height = top + plot_h + 92;
  double t0 = g.starts.front(), t1 = g.starts.back();
  if (t1 <= t0) t1 = t0 + 1;
  auto x_of = [&](double t) { return left + (t - t0) / (t1 - t0) * plot_w; };

  std::string out = "<svg class=\"chart heatmap\" role=\"img\" width=\"" + Coord(kChartWidth) +
                    "\" height=\"" + Coord(height) + "\" viewBox=\"0 0 " + Coord(kChartWidth) +
                    " " + Coord(height) + "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out += "<title>" + Escape(map.title) + "</title>\n";
  size_t label_every = row_h >= 10 ? 1 : 3;
  bool any_missing = false;
  for (size_t r = 0; r < rows; ++r) {
    double y = top + row_h * static_cast<double>(r);
    if (r % label_every == 0) {
      out += Text(left - 6, y + row_h / 2 + 4, "end", shown[r],
                  " class=\"label\" data-full=\"" + Escape(g.labels[r]) + "\"");
      out += "\n";
    }
    const auto& row = g.values[r];
    for (size_t b = 0; b < row.size();) {
      double v = row[b];
      bool missing = !std::isfinite(v);
      double whole = missing ? 0 : std::round(v);
      size_t e = b + 1;
      while (e < row.size() && !std::isfinite(row[e]) == missing &&
             (missing || std::round(row[e]) == whole)) {
        ++e;
      }
      any_missing |= missing;
      double x0 = x_of(g.starts[b]), x1 = x_of(g.starts[e]);
      std::string tip =
          g.labels[r] + ", " + HumanNumber(g.starts[b]) + " s to " + HumanNumber(g.starts[e]) +
          " s: " + (missing ? std::string("no data") : HumanNumber(whole) + " " + map.unit);
      out += "<rect x=\"" + Coord(x0) + "\" y=\"" + Coord(y) + "\" width=\"" +
             Coord(std::max(x1 - x0, 0.5)) + "\" height=\"" + Coord(row_h - 1) + "\" fill=\"" +
             (missing ? std::string("#ffffff") : ScaleColor(whole / vmax)) + "\"" +
             (missing ? " stroke=\"#dddddd\"" : "") + "><title>" + Escape(tip) +
             "</title></rect>\n";
      b = e;
    }
  }
  // Time axis.
  double axis_y = top + plot_h + 2;
  out += "<line class=\"axis\" x1=\"" + Coord(left) + "\" y1=\"" + Coord(axis_y) + "\" x2=\"" +
         Coord(left + plot_w) + "\" y2=\"" + Coord(axis_y) + "\"/>\n";
  for (double t : NiceTicks(t0, t1, 8)) {
    if (t < t0 - 1e-12 || t > t1 + 1e-12) continue;
    double x = x_of(t);
    out += "<line class=\"axis\" x1=\"" + Coord(x) + "\" y1=\"" + Coord(axis_y) + "\" x2=\"" +
           Coord(x) + "\" y2=\"" + Coord(axis_y + 4) + "\"/>" +
           Text(x, axis_y + 16, "middle", HumanNumber(t)) + "\n";
  }
  out += Text(left + plot_w / 2, axis_y + 34, "middle", "Time (s)", " class=\"axis-title\"") + "\n";
  // Color scale.
  double ly = axis_y + 50;
  out += "<defs><linearGradient id=\"" + Escape(id) + "-scale\">";
  for (int i = 0; i <= 4; ++i) {
    out += "<stop offset=\"" + std::to_string(i * 25) + "%\" stop-color=\"" + ScaleColor(i / 4.0) +
           "\"/>";
  }
  out += "</linearGradient></defs>\n";
  out += "<rect x=\"" + Coord(left) + "\" y=\"" + Coord(ly) +
         "\" width=\"200\" height=\"12\" fill=\"url(#" + Escape(id) +
         "-scale)\" stroke=\"#999999\"/>\n";
  out += Text(left, ly + 26, "start", "0 " + map.unit) +
         Text(left + 200, ly + 26, "end", HumanNumber(vmax) + " " + map.unit) + "\n";
  if (any_missing) {
    out += "<rect x=\"" + Coord(left + 230) + "\" y=\"" + Coord(ly) +
           "\" width=\"12\" height=\"12\" fill=\"#ffffff\" stroke=\"#999999\"/>" +
           Text(left + 248, ly + 10, "start", "no data") + "\n";
  }
  out += "</svg>\n";
  if (g.rows_capped) {
    out += Note("Showing the first " + std::to_string(rows) + " of " +
                std::to_string(std::max(map.row_labels.size(), map.values.size())) + " rows.");
  }
  if (g.group > 1) {
    out += Note("Each cell averages " + std::to_string(g.group) + " adjacent bins of " +
                HumanNumber(BinWidth(map.bin_starts_s)) + " s.");
  }
  return out;
}

}  // namespace gsys::html
