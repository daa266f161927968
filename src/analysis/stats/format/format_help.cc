// SPDX-License-Identifier: Apache-2.0
// `gsys stats --help-formats [NAME|ALL]`: one help block per format, kept with the code.
#include <utility>

#include "analysis/stats/format/formatter.h"
#include "common/strings.h"

namespace gsys::analysis {
namespace {

constexpr const char* kUnitHelp =
    "        <unit>     : Display unit for the columns it fits, or <cat>=<unit>.\n"
    "                     time (ts, dur): ns us ms s (any prefix of nsec nanoseconds\n"
    "                       usec microseconds msec milliseconds seconds); default ns.\n"
    "                     bytes (mem, thru): B KB KiB MB MiB GB GiB; default MB\n"
    "                       (10^6 bytes). Converted values print with 3 decimals.\n"
    "                     gid: gidint gidhex gidsubint gidsubhex; default gidint.\n"
    "                     addr: hex uint; default hex.  ratio: %.\n"
    "                     --timeunit=<unit> acts like time=<unit> on every format.\n"
    "        noconv     : Do not convert units; print the values as the report made them.\n"
    "        nohdrunit  : Do not append the unit to the header (\"Total Time\").\n";

constexpr const char* kColumnArgs =
    "        nohdr      : Do not print the header.\n"
    "        nofmt      : Do not reformat numbers (no thousands separators).\n"
    "        autolines=<n> : Rows scanned for automatic widths (default 100, 0 = all).\n"
    "        colmax=<n> : Widest automatic column (default 100, 0 = no limit); longer\n"
    "                     values are cut to n-1 characters plus '\xE2\x80\xA6'. nolimit = "
    "colmax=0.\n"
    "        <width>... : Width of each visible column in turn: '.' = automatic,\n"
    "                     0 = hide the column, n = exactly n characters.\n";

std::string Block(const std::string& name) {
  if (name == "column") {
    return std::string(
               "    column[:<unit>...][:nohdr][:nofmt][:autolines=<n>][:colmax=<n>][:<width>...]\n"
               "        Human-readable columns (console default, file extension .txt).\n"
               "        Numbers are right-aligned with thousands separators (213,318,215.0),\n"
               "        text is left-aligned, headers are centred over a line of dashes.\n"
               "        Note: this follows nsys 2025.3.1; nsys 2024.6 and earlier printed\n"
               "        numbers without thousands separators (use nofmt for that look).\n") +
           kColumnArgs + kUnitHelp;
  }
  if (name == "table") {
    return std::string(
               "    table[:<unit>...][:nohdr][:nofmt][:autolines=<n>][:colmax=<n>][:<width>...]\n"
               "        Like column, but draws boundaries between rows and columns\n"
               "        (+---+ / | cell | lines; extension .txt).\n") +
           kColumnArgs + kUnitHelp;
  }
  if (name == "csv") {
    return std::string(
               "    csv[:nohdr][:raw][:<unit>...]\n"
               "        Comma-separated values (file and @command default, extension .csv).\n"
               "        Values containing a comma, double quote or line break are quoted;\n"
               "        quotes inside are doubled. Units are converted as in column. Text\n"
               "        values starting with = + - @ (or a tab or CR) that are not numbers\n"
               "        get a leading ' so that spreadsheets do not run them as formulas\n"
               "        (OWASP); nsys writes them as they are.\n"
               "        nohdr      : Do not print the header.\n"
               "        raw        : Write such values as they are, as nsys does.\n") +
           kUnitHelp;
  }
  if (name == "tsv") {
    return std::string(
               "    tsv[:nohdr][:esc][:raw][:<unit>...]\n"
               "        Tab-separated values (extension .tsv). Tabs and line breaks inside\n"
               "        values are replaced by a space. Formula-like text values get a\n"
               "        leading ' as in csv.\n"
               "        nohdr      : Do not print the header.\n"
               "        esc        : Write them as the two characters \\t (\\n, \\r) instead.\n"
               "        raw        : Write formula-like values as they are, as nsys does.\n") +
           kUnitHelp;
  }
  if (name == "json") {
    return std::string(
               "    json[:<unit>...]\n"
               "        One JSON array of objects keyed by header text, 2-space indented\n"
               "        (extension .json). Numbers are JSON numbers, empty cells \"\".\n"
               "        Unlike nsys, double quotes and control characters inside values\n"
               "        are escaped, so the output is always valid JSON.\n") +
           kUnitHelp;
  }
  if (name == "hdoc") {
    return std::string(
               "    hdoc[:<unit>...][:title=<title>][:css=<URL>]\n"
               "        Stand-alone HTML5 document holding one <table> (extension .html).\n"
               "        title=<title> : Document title (default \"gsys stats\").\n"
               "        css=<URL>  : Link this style sheet.\n") +
           kUnitHelp;
  }
  if (name == "htable") {
    return std::string(
               "    htable[:<unit>...]\n"
               "        A bare HTML <table> fragment (extension .html).\n") +
           kUnitHelp;
  }
  return "";
}

}  // namespace

std::string FormatHelp(const std::string& name) {
  if (name.empty()) {
    return "\nThe following output formats are available:\n\n"
           "    column   human-readable columns (console default)\n"
           "    table    columns with box lines\n"
           "    csv      comma-separated values (file and @command default)\n"
           "    tsv      tab-separated values\n"
           "    json     JSON array of objects\n"
           "    hdoc     stand-alone HTML5 document\n"
           "    htable   bare HTML <table>\n\n"
           "Use --help-formats NAME for one format's arguments, or --help-formats ALL.\n";
  }
  if (ToLower(name) != "all") {
    std::string block = Block(name);
    return block.empty() ? "" : "\n" + block;
  }
  std::string out = "\nThe following output formats are available (-f/--format NAME[:ARG...]):\n";
  for (const auto& format : FormatNames()) out += "\n" + Block(format);
  return out;
}

}  // namespace gsys::analysis
