// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/number_text.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace gsys::report::kineto {
namespace {

// Accumulates decimal digits into `*v` (non-negative); false on overflow.
bool AddDigit(uint64_t* v, char c, uint64_t limit) {
  uint64_t d = static_cast<uint64_t>(c - '0');
  if (*v > (limit - d) / 10) return false;
  *v = *v * 10 + d;
  return true;
}

}  // namespace

std::optional<int64_t> ParseIntText(std::string_view text) {
  bool neg = !text.empty() && text[0] == '-';
  if (neg) text.remove_prefix(1);
  if (text.empty() || text.size() > 20) return std::nullopt;
  const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || !AddDigit(&v, c, limit)) return std::nullopt;
  }
  if (neg) return v == (uint64_t{1} << 63) ? INT64_MIN : -static_cast<int64_t>(v);
  return static_cast<int64_t>(v);
}

std::optional<int64_t> MicrosTextToNanos(std::string_view text) {
  if (text.find_first_of("eE") != std::string_view::npos) {
    // Exponent form (rare: Kineto writes fixed-point): through a double, range-checked.
    std::string s(text.substr(0, 64));
    char* end = nullptr;
    double us = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(us)) return std::nullopt;
    double ns = std::trunc(us * 1000.0);
    if (!(ns > -9.2e18 && ns < 9.2e18)) return std::nullopt;
    return static_cast<int64_t>(ns);
  }
  bool neg = !text.empty() && text[0] == '-';
  if (neg) text.remove_prefix(1);
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 20) return std::nullopt;
  const uint64_t limit = (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (char c : whole) {
    if (c < '0' || c > '9' || !AddDigit(&v, c, limit)) return std::nullopt;
  }
  for (size_t i = 0; i < 3; ++i) {
    char c = i < frac.size() ? frac[i] : '0';
    if (c < '0' || c > '9' || !AddDigit(&v, c, limit)) return std::nullopt;
  }
  for (size_t i = 3; i < frac.size(); ++i) {
    if (frac[i] < '0' || frac[i] > '9') return std::nullopt;
  }
  return neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

}  // namespace gsys::report::kineto
