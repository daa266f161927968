// SPDX-License-Identifier: Apache-2.0
// A small nsys-compatible flag parser: `-x VAL`, `-xVAL`, `--name VAL`, `--name=VAL`,
// boolean flags with optional `true|false` values (`--stats=true`, `--force-overwrite`),
// repeatable flags, `--` and (optionally) stopping at the first positional (the target
// command of `profile`).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::cli {

enum class FlagValue {
  kNone,      // switch: --help
  kRequired,  // -r NAME
  kBool,      // optional true/false value; bare flag means true
  kOptional,  // optional value, only in the --name=VALUE form; bare flag gives ""
};

struct FlagSpec {
  std::string long_name;  // without dashes: "report"
  char short_name = 0;    // 'r' or 0
  FlagValue value = FlagValue::kRequired;
  std::string value_name;  // for help: "NAME"
  std::string help;
};

class ParsedFlags {
 public:
  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  // Every value given for a repeatable flag, in order.
  const std::vector<std::string>& All(const std::string& name) const;
  // The last value given, or nullopt.
  std::optional<std::string> Last(const std::string& name) const;
  // kBool flags: absent -> `fallback`; else the parsed value.
  bool Bool(const std::string& name, bool fallback) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend Result<ParsedFlags> ParseFlags(const std::string&, const std::vector<FlagSpec>&,
                                        const std::vector<std::string>&, bool);
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positionals_;
};

// Parses `args` for `verb`. With `stop_at_positional`, the first non-flag argument
// and everything after it are positionals (the target command line).
Result<ParsedFlags> ParseFlags(const std::string& verb, const std::vector<FlagSpec>& specs,
                               const std::vector<std::string>& args, bool stop_at_positional);

// Parses true/false/yes/no/1/0/on/off (any case).
std::optional<bool> ParseBool(const std::string& text);

// Renders the option list for help text.
std::string FlagsHelp(const std::vector<FlagSpec>& specs);

}  // namespace gsys::cli
