// SPDX-License-Identifier: Apache-2.0
#include "cli/flags.h"

#include "common/strings.h"

namespace gsys::cli {

const std::vector<std::string>& ParsedFlags::All(const std::string& name) const {
  static const std::vector<std::string> kEmpty;
  auto it = values_.find(name);
  return it == values_.end() ? kEmpty : it->second;
}

std::optional<std::string> ParsedFlags::Last(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

bool ParsedFlags::Bool(const std::string& name, bool fallback) const {
  auto last = Last(name);
  if (!last) return fallback;
  return ParseBool(*last).value_or(fallback);
}

std::optional<bool> ParseBool(const std::string& text) {
  std::string v = ToLower(text);
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  return std::nullopt;
}

namespace {

const FlagSpec* FindLong(const std::vector<FlagSpec>& specs, const std::string& name) {
  for (const auto& s : specs) {
    if (s.long_name == name) return &s;
  }
  return nullptr;
}

const FlagSpec* FindShort(const std::vector<FlagSpec>& specs, char name) {
  for (const auto& s : specs) {
    if (s.short_name && s.short_name == name) return &s;
  }
  return nullptr;
}

Status UnknownFlag(const std::string& verb, const std::string& flag,
                   const std::vector<FlagSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back("--" + s.long_name);
  std::string msg = verb + ": unknown option '" + flag + "'";
  if (auto best = ClosestMatch(flag, names)) msg += " (did you mean " + *best + "?)";
  return Error(StatusCode::kInvalidArgument, msg);
}

}  // namespace

Result<ParsedFlags> ParseFlags(const std::string& verb, const std::vector<FlagSpec>& specs,
                               const std::vector<std::string>& args, bool stop_at_positional) {
  ParsedFlags out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.positionals_.insert(out.positionals_.end(), args.begin() + static_cast<long>(i) + 1,
                              args.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      if (stop_at_positional) {
        out.positionals_.insert(out.positionals_.end(), args.begin() + static_cast<long>(i),
                                args.end());
        break;
      }
      out.positionals_.push_back(arg);
      continue;
    }
    const FlagSpec* spec = nullptr;
    std::optional<std::string> inline_value;
    std::string shown = arg;
    if (arg[1] == '-') {
      std::string body = arg.substr(2);
      size_t eq = body.find('=');
      if (eq != std::string::npos) {
        inline_value = body.substr(eq + 1);
        body = body.substr(0, eq);
        shown = "--" + body;
      }
      spec = FindLong(specs, body);
    } else {
      spec = FindShort(specs, arg[1]);
      shown = arg.substr(0, 2);
      if (arg.size() > 2) inline_value = arg[2] == '=' ? arg.substr(3) : arg.substr(2);
    }
    if (!spec) return UnknownFlag(verb, shown, specs);
    std::string value;
    switch (spec->value) {
      case FlagValue::kNone:
        if (inline_value) {
          return Error(StatusCode::kInvalidArgument,
                       verb + ": option '" + shown + "' takes no value");
        }
        value = "true";
        break;
      case FlagValue::kRequired:
        if (inline_value) {
          value = *inline_value;
        } else if (i + 1 < args.size()) {
          value = args[++i];
        } else {
          return Error(StatusCode::kInvalidArgument,
                       verb + ": option '" + shown + "' needs a value");
        }
        break;
      case FlagValue::kBool:
        if (inline_value) {
          value = *inline_value;
        } else if (i + 1 < args.size() && ParseBool(args[i + 1])) {
          value = args[++i];
        } else {
          value = "true";
        }
        if (!ParseBool(value)) {
          return Error(
              StatusCode::kInvalidArgument,
              verb + ": option '" + shown + "' expects true or false, got '" + value + "'");
        }
        break;
      case FlagValue::kOptional:
        value = inline_value.value_or("");
        break;
    }
    out.values_[spec->long_name].push_back(value);
  }
  return out;
}

std::string FlagsHelp(const std::vector<FlagSpec>& specs) {
  std::string out;
  for (const auto& s : specs) {
    std::string left = "  ";
    left += s.short_name ? std::string("-") + s.short_name + ", " : "    ";
    left += "--" + s.long_name;
    if (s.value == FlagValue::kRequired) left += " " + s.value_name;
    if (s.value == FlagValue::kBool) left += "[=true|false]";
    if (s.value == FlagValue::kOptional) left += "[=" + s.value_name + "]";
    if (left.size() < 34)
      left.resize(34, ' ');
    else
      left += "\n" + std::string(34, ' ');
    out += left;
    // Indent continuation lines of multi-line help.
    for (char c : s.help) {
      out += c;
      if (c == '\n') out += std::string(34, ' ');
    }
    out += "\n";
  }
  return out;
}

}  // namespace gsys::cli
