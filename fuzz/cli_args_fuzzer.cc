// SPDX-License-Identifier: Apache-2.0
// Fuzz target: CLI argument parsing (cli/flags, cli/time_spec): the input is split on NUL bytes
// into an argv and parsed against a flag table with every value kind, with and without
// stopping at the first positional; time values and windows are parsed from the same strings.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/time_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gsys::cli::FlagSpec;
  using gsys::cli::FlagValue;
  static const std::vector<FlagSpec> kSpecs = {
      {"report", 'r', FlagValue::kRequired, "NAME", ""},
      {"force-overwrite", 'f', FlagValue::kBool, "", ""},
      {"help", 'h', FlagValue::kNone, "", ""},
      {"format", 0, FlagValue::kOptional, "F", ""},
      {"output", 'o', FlagValue::kRequired, "PATH", ""},
      {"timeunit", 0, FlagValue::kRequired, "U", ""},
      {"stats", 0, FlagValue::kBool, "", ""},
  };
  std::vector<std::string> args(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.emplace_back();
    } else {
      args.back() += static_cast<char>(data[i]);
    }
  }
  for (bool stop : {false, true}) {
    auto parsed = gsys::cli::ParseFlags("fuzz", kSpecs, args, stop);
    if (parsed.ok()) {
      (void)parsed->Bool("force-overwrite", false);
      (void)parsed->Last("report");
      (void)parsed->All("output");
    }
  }
  for (const auto& a : args) {
    (void)gsys::cli::ParseBool(a);
    auto v = gsys::cli::ParseTimeValue(a);
    (void)v;
    auto w = gsys::cli::ParseTimeWindow(a);
    (void)w;
  }
  return 0;
}
