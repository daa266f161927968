// SPDX-License-Identifier: Apache-2.0
#include "analysis/rules/rule_options.h"

#include "common/strings.h"

namespace gsys::analysis {
namespace {

Status BadOption(const RuleSpec& spec, const std::string& what) {
  return Error(StatusCode::kInvalidArgument,
               "analyze: rule '" + std::string(spec.name) + "': " + what);
}

std::string Expected(const RuleSpec& spec) {
  std::string list = "rows, start, end, nvtx";
  for (const RuleOption& o : spec.options) list += ", " + std::string(o.name);
  return list;
}

}  // namespace

Result<BoundRuleArgs> BindRuleArgs(const RuleSpec& spec, const std::vector<std::string>& args) {
  BoundRuleArgs bound;
  for (const RuleOption& o : spec.options) bound.values[std::string(o.name)] = o.default_value;
  for (const std::string& arg : args) {
    size_t eq = arg.find('=');
    std::string key = arg.substr(0, eq);
    if (eq == std::string::npos) {
      return BadOption(spec, "option '" + arg + "' needs a value (" + key +
                                 "=...; options: " + Expected(spec) + ")");
    }
    std::string value = arg.substr(eq + 1);
    if (key == "nvtx") {
      if (value.empty()) return BadOption(spec, "option 'nvtx=' names no range");
      bound.nvtx = value;
      continue;
    }
    std::optional<int64_t> number = ParseInt64(value);
    const RuleOption* option = nullptr;
    for (const RuleOption& o : spec.options) {
      if (o.name == key) option = &o;
    }
    bool common = key == "rows" || key == "start" || key == "end";
    if (!common && !option) {
      std::vector<std::string> names = Split(Expected(spec), ',');
      for (auto& n : names) n = std::string(Trim(n));
      std::string msg = "unknown option '" + key + "'";
      if (auto best = ClosestMatch(key, names)) msg += " (did you mean '" + *best + "'?)";
      return BadOption(spec, msg + "; options: " + Expected(spec));
    }
    if (!number) {
      return BadOption(spec, "option '" + arg + "': '" + value + "' is not an integer");
    }
    if (key == "rows") {
      if (*number < -1) return BadOption(spec, "option '" + arg + "': rows must be -1 or more");
      bound.rows = *number;
    } else if (key == "start") {
      bound.start = *number;
    } else if (key == "end") {
      bound.end = *number;
    } else {
      if (*number < option->min || *number > option->max) {
        return BadOption(spec, "option '" + arg + "': value must be between " +
                                   std::to_string(option->min) + " and " +
                                   std::to_string(option->max));
      }
      bound.values[key] = *number;
    }
  }
  if (bound.start && bound.end && *bound.start > *bound.end) {
    return BadOption(spec, "the start time cannot be greater than the end time");
  }
  bound.ctx.vars["rows"] = std::to_string(bound.rows);
  for (const auto& [name, value] : bound.values) bound.ctx.vars[name] = std::to_string(value);
  return bound;
}

std::string RuleOptionsHelp(const RuleSpec& spec) {
  std::string help =
      "    Options:\n"
      "        rows=<limit> - Limit the number of rows returned by the query.\n"
      "            Default is 50. Use -1 for no limit.\n\n"
      "        start=<time> - Display data recorded after the specified time in\n"
      "            nanoseconds.\n\n"
      "        end=<time> - Display data recorded before the specified time in\n"
      "            nanoseconds.\n\n"
      "        nvtx=<range[@domain]> - Display data only for the specified NVTX range.\n"
      "            Only the first matching instance is used; <domain> is given only when\n"
      "            the range is not in the default domain. Explicit start/end times\n"
      "            override the range's times.\n";
  for (const RuleOption& o : spec.options) {
    help += "\n        ";
    for (char c : o.help) {
      help += c;
      if (c == '\n') help += "            ";
    }
    help += "\n            Default is " + std::to_string(o.default_value) + ".\n";
  }
  return help;
}

std::string ExpandMessage(std::string_view text, const std::map<std::string, int64_t>& values) {
  std::string out(text);
  for (const auto& [name, value] : values) {
    std::string token = "{" + name + "}";
    for (size_t pos = out.find(token); pos != std::string::npos; pos = out.find(token, pos)) {
      out.replace(pos, token.size(), std::to_string(value));
    }
  }
  return out;
}

}  // namespace gsys::analysis
