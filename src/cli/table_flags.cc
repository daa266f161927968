// SPDX-License-Identifier: Apache-2.0
#include "cli/table_flags.h"

#include "analysis/stats/format/formatter.h"
#include "common/strings.h"

namespace gsys::cli {

std::vector<FlagSpec> TableVerbFlags(const FlagSpec& selector, const FlagSpec& help_selector,
                                     const std::string& item) {
  std::string upper;
  for (char c : item) upper += static_cast<char>(c - 'a' + 'A');
  return {
      selector,
      {"format", 'f', FlagValue::kRequired, "NAME[:ARG...][,...]",
       "Output format per " + item +
           ": column, table, csv, tsv, json, hdoc, htable.\n"
           "Default: column on the console, csv for files and commands. csv/tsv/json on the\n"
           "console: stdout holds only the data (one JSON document), the console lines\n"
           "go to stderr."},
      {"output", 'o', FlagValue::kRequired, "OUT[,...]",
       "'-' console (default), '@CMD' pipe to a command, '.' or BASENAME:\n"
       "write BASENAME_" +
           upper + ".EXT."},
      {"timeunit", 0, FlagValue::kRequired, "UNIT",
       "Time unit for every " + item + ": ns, us, ms, s."},
      {"filter-time", 0, FlagValue::kRequired, "[START]/[END]",
       "Only events overlapping this window (e.g. 1s/2s500ms)."},
      {"filter-nvtx", 0, FlagValue::kRequired, "RANGE[@DOMAIN][/INDEX]",
       "Only events inside the INDEX-th instance of an NVTX range (overrides\n"
       "--filter-time)."},
      {"force-overwrite", 0, FlagValue::kBool, "", "Overwrite existing output files."},
      {"force-export", 0, FlagValue::kBool, "",
       "Accepted for nsys compatibility; reports are read directly."},
      {"sqlite", 0, FlagValue::kRequired, "FILE", "SQLite export to use for a .nsys-rep input."},
      {"quiet", 'q', FlagValue::kNone, "", "Print only the results and errors."},
      help_selector,
      {"help-formats", 0, FlagValue::kOptional, "NAME|ALL", "List formats, or describe one."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
}

Status ParseTableRunOptions(const std::string& verb, const ParsedFlags& flags,
                            TableRunOptions* options) {
  options->verb = verb;
  options->inputs = flags.positionals();
  if (options->inputs.empty()) {
    return Error(StatusCode::kInvalidArgument,
                 verb + ": no input report given (usage: gsys " + verb + " [options] REPORT...)");
  }
  options->format_flags = flags.All("format");
  options->output_flags = flags.All("output");
  if (auto unit = flags.Last("timeunit")) {
    auto normalized = analysis::NormalizeTimeUnit(*unit);
    if (!normalized.ok()) {
      // The formatter names the stats verb; say which verb the user ran.
      std::string message = normalized.status().message();
      if (StartsWith(message, "stats: ")) message = message.substr(7);
      return Error(StatusCode::kInvalidArgument, verb + ": " + message);
    }
    options->timeunit = normalized.value();
  }
  if (auto window = flags.Last("filter-time")) {
    auto parsed = ParseTimeWindow(*window);
    if (!parsed.ok()) {
      return Error(StatusCode::kInvalidArgument,
                   verb + ": --filter-time: " + parsed.status().message());
    }
    options->filter_time = parsed.value();
  }
  options->filter_nvtx = flags.Last("filter-nvtx");
  options->sqlite_path = flags.Last("sqlite");
  options->force_overwrite = flags.Bool("force-overwrite", false);
  options->quiet = flags.Has("quiet");
  return OkStatus();
}

std::string HelpTopic(const ParsedFlags& flags, const std::string& name) {
  std::string topic = flags.Last(name).value_or("");
  if (topic.empty() && !flags.positionals().empty()) topic = flags.positionals().front();
  return topic;
}

}  // namespace gsys::cli
