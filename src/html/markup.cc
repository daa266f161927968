// SPDX-License-Identifier: Apache-2.0
#include "html/markup.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "common/strings.h"

namespace gsys::html {

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string Coord(double value) {
  if (!std::isfinite(value)) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", value);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string HumanNumber(double value, int significant) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  double magnitude = std::floor(std::log10(std::fabs(value)));
  int decimals = std::clamp(significant - 1 - static_cast<int>(magnitude), 0, 9);
  if (std::fabs(value) >= 1e15) decimals = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  std::string s(buf);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return GroupThousands(s);
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) {
    double pad = lo == 0 ? 1 : std::fabs(lo) * 0.5;
    lo -= pad;
    hi += pad;
    if (lo < 0 && lo + pad >= 0) lo = 0;  // keep a non-negative single value's axis at zero
  }
  double raw = (hi - lo) / (std::max(1, target) + 1);  // up to target + 2 ticks, tight ends
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * power;
    if (step >= raw) break;
  }
  double first = std::floor(lo / step + 1e-9) * step;
  double last = std::ceil(hi / step - 1e-9) * step;
  std::vector<double> ticks;
  for (double t = first; t <= last + step * 1e-6 && ticks.size() < 64; t += step) {
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return ticks;
}

std::string ScaleColor(double fraction) {
  // Light to dark blue (ColorBrewer "Blues" stops): readable on white, printable in grayscale.
  static constexpr std::array<std::array<int, 3>, 5> kStops = {
      {{239, 243, 255}, {189, 215, 231}, {107, 174, 214}, {49, 130, 189}, {8, 69, 148}}};
  if (!std::isfinite(fraction)) fraction = 0;
  double f = std::clamp(fraction, 0.0, 1.0) * (kStops.size() - 1);
  size_t i = std::min(static_cast<size_t>(f), kStops.size() - 2);
  double t = f - static_cast<double>(i);
  char buf[8];
  int rgb[3];
  for (int k = 0; k < 3; ++k) {
    rgb[k] = static_cast<int>(std::lround(kStops[i][k] + (kStops[i + 1][k] - kStops[i][k]) * t));
  }
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

std::string SeriesColor(size_t i) {
  static constexpr std::array<const char*, 10> kColors = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kColors[i % kColors.size()];
}

std::string Ellipsize(std::string_view text, size_t max_chars) {
  auto is_start = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  size_t total = static_cast<size_t>(std::count_if(text.begin(), text.end(), is_start));
  if (total <= max_chars) return std::string(text);
  if (max_chars == 0) return "";
  size_t keep = max_chars - 1, chars = 0, i = 0;
  for (; i < text.size(); ++i) {
    if (is_start(text[i]) && chars++ == keep) break;
  }
  return std::string(text.substr(0, i)) + "\xE2\x80\xA6";
}

std::string ElideMiddle(std::string_view text, size_t max_chars) {
  std::vector<size_t> starts;  // byte offset of each character
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  if (starts.size() <= max_chars) return std::string(text);
  if (max_chars == 0) return "";
  size_t keep = max_chars - 1, head = (keep + 1) / 2, tail = keep - head;
  std::string out(text.substr(0, head < starts.size() ? starts[head] : text.size()));
  out += "\xE2\x80\xA6";
  if (tail > 0) out += text.substr(starts[starts.size() - tail]);
  return out;
}

}  // namespace gsys::html
