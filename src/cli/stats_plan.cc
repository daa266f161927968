// SPDX-License-Identifier: Apache-2.0
#include "cli/stats_plan.h"

#include <filesystem>

#include "common/strings.h"

namespace gsys::cli {

std::vector<std::string> ExpandListFlags(const std::vector<std::string>& values) {
  std::vector<std::string> items;
  for (const auto& value : values) {
    for (auto& item : Split(value, ',')) {
      if (item.empty() && !items.empty()) item = items.back();
      items.push_back(item);
    }
  }
  return items;
}

Result<Destination> ParseDestination(const std::string& item, const std::string& input_path) {
  Destination d;
  if (item.empty() || item == "-") return d;
  if (item[0] == '@') {
    if (Trim(item.substr(1)).empty()) {
      return Error(StatusCode::kInvalidArgument, "stats: output '@' names no command");
    }
    d.kind = DestinationKind::kCommand;
    d.target = item.substr(1);
    return d;
  }
  d.kind = DestinationKind::kFile;
  if (item == ".") {
    std::filesystem::path p(input_path);
    d.target = (p.parent_path() / p.stem()).string();
  } else {
    d.target = item;
  }
  return d;
}

std::string OutputFileName(const std::string& basename, const std::string& report_name,
                           const std::vector<std::string>& args, const std::string& extension) {
  std::string name = basename + "_" + report_name;
  for (const auto& arg : args) {
    std::string safe;
    for (char c : arg) safe += (c == '/' || c == ':') ? '_' : c;
    name += "_" + safe;
  }
  return name + extension;
}

std::string PairedItem(const std::vector<std::string>& items, size_t i,
                       const std::string& fallback) {
  if (items.empty()) return fallback;
  return i < items.size() ? items[i] : items.back();
}

}  // namespace gsys::cli
