// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/column_alias.h"

#include <array>
#include <string>
#include <utility>

namespace gsys::analysis {

Column ParseColumnAlias(std::string_view alias) {
  static constexpr std::array<std::pair<std::string_view, UnitCategory>, 7> kCategories = {{
      {"ts", UnitCategory::kTs},
      {"dur", UnitCategory::kDur},
      {"mem", UnitCategory::kMem},
      {"thru", UnitCategory::kThru},
      {"ratio", UnitCategory::kRatio},
      {"gid", UnitCategory::kGid},
      {"addr", UnitCategory::kAddr},
  }};
  Column column;
  column.hidden = !alias.empty() && alias[0] == '_';
  column.label = std::string(alias);
  size_t colon = alias.rfind(':');
  if (colon == std::string_view::npos) return column;
  std::string_view suffix = alias.substr(colon + 1);
  size_t underscore = suffix.find('_');
  std::string_view category = suffix.substr(0, underscore);
  std::string_view unit =
      underscore == std::string_view::npos ? std::string_view() : suffix.substr(underscore + 1);
  for (const auto& [text, value] : kCategories) {
    if (text != category) continue;
    column.label = std::string(alias.substr(0, colon));
    column.category = value;
    column.base_unit = std::string(unit);
    return column;
  }
  return column;
}

}  // namespace gsys::analysis
