// SPDX-License-Identifier: Apache-2.0
#include "launcher/report_groups.h"

#include "common/one_line.h"
#include "launcher/resolve_output.h"

namespace gsys::launcher {

ReportGroups GroupProcessesByName(
    const std::string& pattern, const std::vector<std::string>& vars,
    const std::map<uint32_t, std::map<std::string, std::string>>& process_vars,
    const OutputNameContext& ctx) {
  const std::map<uint32_t, std::map<std::string, std::string>> empty{{0, {}}};
  const auto& by_pid = process_vars.empty() ? empty : process_vars;
  std::map<std::string, ReportGroup> named;
  ReportGroups out;
  for (const auto& entry : by_pid) {
    uint32_t pid = entry.first;
    // Not a structured binding: clang before 16 cannot capture one in a lambda (the fuzz tier).
    const std::map<std::string, std::string>& values = entry.second;
    OutputNameContext c = ctx;
    c.getenv = [&values, &vars](const std::string& name) -> const char* {
      auto it = values.find(name);
      if (it != values.end()) return it->second.c_str();
      for (const auto& v : vars) {
        if (v == name) return "";  // not set in this process: empty, as nsys expands it
      }
      return nullptr;
    };
    std::string shown;
    for (const auto& v : vars) {
      auto it = values.find(v);
      shown += (shown.empty() ? "" : ",") + v + "=" + (it == values.end() ? "" : it->second);
    }
    auto base = ResolveOutputPattern(pattern, c, "profile");
    if (!base.ok()) {
      out.errors.push_back(base.status().message() + " (" + OneLine(shown) + ", process " +
                           std::to_string(pid) + ")");
      continue;
    }
    ReportGroup& g = named[*base];
    g.base = *base;
    if (g.values.empty()) g.values = shown;
    if (!process_vars.empty()) g.pids.insert(pid);
  }
  for (auto& [name, g] : named) out.groups.push_back(std::move(g));
  return out;
}

}  // namespace gsys::launcher
