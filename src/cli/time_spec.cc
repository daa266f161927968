// SPDX-License-Identifier: Apache-2.0
#include "cli/time_spec.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace gsys::cli {
namespace {

// ns per unit; empty unit means ns.
bool UnitScale(std::string_view unit, double* scale) {
  struct Unit {
    const char* name;
    double ns;
  };
  static const Unit kUnits[] = {{"", 1},         {"ns", 1},   {"nsec", 1},   {"us", 1e3},
                                {"usec", 1e3},   {"ms", 1e6}, {"msec", 1e6}, {"s", 1e9},
                                {"sec", 1e9},    {"m", 60e9}, {"min", 60e9}, {"h", 3600e9},
                                {"hour", 3600e9}};
  for (const auto& u : kUnits) {
    if (unit == u.name) {
      *scale = u.ns;
      return true;
    }
  }
  return false;
}

Status Bad(std::string_view text, const std::string& why) {
  return Error(StatusCode::kInvalidArgument,
               "invalid time value '" + std::string(text) + "': " + why);
}

}  // namespace

Result<int64_t> ParseTimeValue(std::string_view text) {
  if (text.empty()) return Bad(text, "empty");
  std::string s(text);
  const char* p = s.c_str();
  const char* end = p + s.size();
  double total = 0;
  bool any = false;
  while (p < end) {
    char* after = nullptr;
    double number = std::strtod(p, &after);
    if (after == p) return Bad(text, "expected a number");
    // strtod eats "1e3"; make sure it did not also eat a unit like "e" of nothing.
    const char* unit_begin = after;
    const char* q = after;
    while (q < end && std::isalpha(static_cast<unsigned char>(*q))) ++q;
    double scale = 0;
    if (!UnitScale(std::string_view(unit_begin, static_cast<size_t>(q - unit_begin)), &scale)) {
      return Bad(
          text, "unknown unit '" + std::string(unit_begin, q) + "' (expected ns, us, ms, s, m, h)");
    }
    if (!std::isfinite(number)) return Bad(text, "not a finite number");
    total += number * scale;
    any = true;
    p = q;
  }
  if (!any) return Bad(text, "expected a number");
  if (std::fabs(total) > 9.2e18) return Bad(text, "out of range");
  return static_cast<int64_t>(std::llround(total));
}

Result<TimeWindowSpec> ParseTimeWindow(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    return Error(StatusCode::kInvalidArgument,
                 "invalid time window '" + std::string(text) + "': expected [start]/[end]");
  }
  TimeWindowSpec window;
  std::string_view start = text.substr(0, slash);
  std::string_view end = text.substr(slash + 1);
  if (!start.empty()) {
    GSYS_ASSIGN_OR_RETURN(window.start, ParseTimeValue(start));
  }
  if (!end.empty()) {
    GSYS_ASSIGN_OR_RETURN(window.end, ParseTimeValue(end));
  }
  if (window.start > window.end) {
    return Error(StatusCode::kInvalidArgument,
                 "invalid time window '" + std::string(text) + "': start is after end");
  }
  return window;
}

}  // namespace gsys::cli
