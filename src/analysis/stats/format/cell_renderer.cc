// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/cell_renderer.h"

#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "common/strings.h"

namespace gsys::analysis {
namespace {

// Scale of a time unit in ns, or 0 when unknown.
double TimeScale(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s" || unit == "sec") return 1e9;
  return 0;
}

// Scale of a size unit in bytes, or 0 when unknown.
double ByteScale(std::string_view unit) {
  if (unit == "B") return 1;
  if (unit == "KB") return 1e3;
  if (unit == "KiB") return 1024.0;
  if (unit == "MB") return 1e6;
  if (unit == "MiB") return 1024.0 * 1024.0;
  if (unit == "GB") return 1e9;
  if (unit == "GiB") return 1024.0 * 1024.0 * 1024.0;
  return 0;
}

std::string BaseUnit(const Column& column) {
  std::string base = column.base_unit;
  if (column.category == UnitCategory::kThru && EndsWith(base, "/s")) {
    base.resize(base.size() - 2);
  }
  if (base.empty()) {
    switch (column.category) {
      case UnitCategory::kTs:
      case UnitCategory::kDur:
        return "ns";
      case UnitCategory::kMem:
      case UnitCategory::kThru:
        return "B";
      default:
        break;
    }
  }
  return base;
}

// The unit values are shown in, before any "/s"; equals the base unit when no
// conversion is possible or wanted.
std::string TargetUnit(const Column& column, const FormatOptions& options) {
  std::string base = BaseUnit(column);
  if (options.noconv) return base;
  std::string wanted;
  double base_scale = 0;
  switch (column.category) {
    case UnitCategory::kTs:
      wanted = options.units.ts;
      base_scale = TimeScale(base);
      break;
    case UnitCategory::kDur:
      wanted = options.units.dur;
      base_scale = TimeScale(base);
      break;
    case UnitCategory::kMem:
      wanted = options.units.mem;
      base_scale = ByteScale(base);
      break;
    case UnitCategory::kThru:
      wanted = options.units.thru;
      base_scale = ByteScale(base);
      break;
    default:
      return base;
  }
  return base_scale > 0 ? wanted : base;
}

double Scale(UnitCategory category, std::string_view unit) {
  bool time = category == UnitCategory::kTs || category == UnitCategory::kDur;
  return time ? TimeScale(unit) : ByteScale(unit);
}

std::string Fixed(double value, int decimals) {
  char buf[400];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  return buf;
}

std::string Shortest(double value) {
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
  std::string text = ec == std::errc() ? std::string(buf, end) : Fixed(value, 6);
  if (text.find('.') == std::string::npos) text += ".0";
  return text;
}

std::string Hex(uint64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIx64, value);
  return buf;
}

// Serialized global id: hardware id (bits 56-63), VM id (48-55), pid (24-47), tid (0-23).
std::string GidFields(uint64_t gid, bool hex) {
  uint64_t fields[] = {gid >> 56, (gid >> 48) & 0xFF, (gid >> 24) & 0xFFFFFF, gid & 0xFFFFFF};
  std::string out;
  for (uint64_t field : fields) {
    if (!out.empty()) out += ':';
    out += hex ? Hex(field) : std::to_string(field);
  }
  return out;
}

RenderedCell Number(std::string text, bool groupable) {
  return RenderedCell{std::move(text), true, groupable};
}

RenderedCell RenderInt(const Column& column, int64_t value, const FormatOptions& options) {
  auto as_unsigned = static_cast<uint64_t>(value);
  if (!options.noconv && column.category == UnitCategory::kGid) {
    if (options.units.gid == "gidhex") return Number(Hex(as_unsigned), false);
    if (options.units.gid == "gidsubint") return {GidFields(as_unsigned, false), false, false};
    if (options.units.gid == "gidsubhex") return {GidFields(as_unsigned, true), false, false};
  }
  if (!options.noconv && column.category == UnitCategory::kAddr) {
    if (options.units.addr == "hex") return Number(Hex(as_unsigned), false);
    return Number(std::to_string(as_unsigned), true);
  }
  return Number(std::to_string(value), true);
}

bool HasUnitDecimals(UnitCategory category) {
  return category == UnitCategory::kTs || category == UnitCategory::kDur ||
         category == UnitCategory::kMem || category == UnitCategory::kThru ||
         category == UnitCategory::kRatio;
}

}  // namespace

std::vector<size_t> VisibleColumns(const ResultTable& table) {
  std::vector<size_t> visible;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (!table.columns[i].hidden) visible.push_back(i);
  }
  return visible;
}

std::string DisplayUnit(const Column& column, const FormatOptions& options) {
  switch (column.category) {
    case UnitCategory::kTs:
    case UnitCategory::kDur:
    case UnitCategory::kMem:
      return TargetUnit(column, options);
    case UnitCategory::kThru:
      return TargetUnit(column, options) + "/s";
    case UnitCategory::kRatio:
      return column.base_unit.empty() ? "%" : column.base_unit;
    default:
      return "";
  }
}

std::string HeaderText(const Column& column, const FormatOptions& options) {
  std::string unit = DisplayUnit(column, options);
  if (unit.empty() || options.nohdrunit) return column.label;
  return column.label + " (" + unit + ")";
}

RenderedCell RenderCell(const Column& column, const Cell& cell, const FormatOptions& options) {
  if (const auto* text = std::get_if<std::string>(&cell)) return {*text, false, false};
  if (std::holds_alternative<std::monostate>(cell)) return {};
  std::string base = BaseUnit(column);
  std::string target = TargetUnit(column, options);
  if (HasUnitDecimals(column.category) && target != base) {
    double value = std::holds_alternative<int64_t>(cell)
                       ? static_cast<double>(std::get<int64_t>(cell))
                       : std::get<double>(cell);
    double factor = Scale(column.category, base) / Scale(column.category, target);
    return Number(Fixed(value * factor, 3), true);
  }
  if (const auto* integer = std::get_if<int64_t>(&cell)) {
    return RenderInt(column, *integer, options);
  }
  double real = std::get<double>(cell);
  if (!std::isfinite(real)) {
    return {std::isnan(real) ? "nan" : (real > 0 ? "inf" : "-inf"), false, false};
  }
  return Number(HasUnitDecimals(column.category) ? Fixed(real, 1) : Shortest(real), true);
}

size_t DisplayLength(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string Truncate(std::string_view text, size_t limit) {
  if (DisplayLength(text) <= limit || limit == 0) return std::string(text);
  size_t kept = 0;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && kept++ == limit - 1) break;
  }
  return std::string(text.substr(0, i)) + "\xE2\x80\xA6";  // U+2026 HORIZONTAL ELLIPSIS
}

}  // namespace gsys::analysis
