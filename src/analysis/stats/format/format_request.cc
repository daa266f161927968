// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/format_request.h"

#include <utility>

#include "analysis/stats/format/format_options.h"
#include "common/strings.h"

namespace gsys::analysis {
namespace {

// Splitting on ':' cuts a URL after its scheme ("css=https" + "//h/x.css"); glue it back.
std::vector<std::string> SplitArgs(std::string_view text) {
  std::vector<std::string> parts = Split(text, ':');
  std::vector<std::string> args;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (!args.empty() && StartsWith(args.back(), "css=") && StartsWith(parts[i], "//")) {
      args.back() += ":" + parts[i];
    } else {
      args.push_back(std::move(parts[i]));
    }
  }
  return args;
}

}  // namespace

std::vector<std::string> FormatNames() {
  return {"column", "table", "csv", "tsv", "json", "hdoc", "htable"};
}

Result<FormatRequest> ParseFormatRequest(std::string_view text) {
  size_t colon = text.find(':');
  std::string name(text.substr(0, colon));
  if (name.empty()) {
    return Error(StatusCode::kInvalidArgument,
                 "stats: empty format name in '" + std::string(text) + "'");
  }
  bool known = false;
  for (const auto& candidate : FormatNames()) known = known || candidate == name;
  if (!known) {
    std::string message = "stats: unknown format '" + name + "'";
    if (auto match = ClosestMatch(name, FormatNames())) {
      message += " (did you mean '" + *match + "'?)";
    } else {
      message += " (expected " + Join(FormatNames(), ", ") + ")";
    }
    return Error(StatusCode::kInvalidArgument, message);
  }
  FormatRequest request{
      name, colon == std::string_view::npos ? std::vector<std::string>{} : SplitArgs(text)};
  GSYS_RETURN_IF_ERROR(ParseFormatOptions(request, "").status());
  return request;
}

Result<std::string> NormalizeTimeUnit(std::string_view text) {
  static const std::pair<const char*, const char*> kSpellings[] = {
      {"nsec", "ns"}, {"nanoseconds", "ns"},  {"usec", "us"},   {"microseconds", "us"},
      {"msec", "ms"}, {"milliseconds", "ms"}, {"seconds", "s"},
  };
  std::string lower = ToLower(Trim(text));
  std::string unit;
  bool ambiguous = false;
  for (const auto& [spelling, canonical] : kSpellings) {
    if (lower.empty() || !StartsWith(spelling, lower)) continue;
    if (!unit.empty() && unit != canonical) ambiguous = true;
    unit = canonical;
  }
  if (unit.empty() || ambiguous) {
    return Error(StatusCode::kInvalidArgument,
                 "stats: " + std::string(ambiguous ? "ambiguous" : "unknown") + " time unit '" +
                     std::string(text) +
                     "' (expected a prefix of nsec nanoseconds usec microseconds msec "
                     "milliseconds seconds)");
  }
  return unit;
}

}  // namespace gsys::analysis
