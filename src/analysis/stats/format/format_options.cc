// SPDX-License-Identifier: Apache-2.0
// Argument grammar shared by every format: keywords, `key=value`, bare units and (for
// column/table) positional widths. Each format accepts only the arguments its help lists.
#include "analysis/stats/format/format_options.h"

#include <optional>

#include "common/strings.h"

namespace gsys::analysis {
namespace {

const std::vector<std::string>& ByteUnits() {
  static const std::vector<std::string> kUnits = {"B", "KB", "KiB", "MB", "MiB", "GB", "GiB"};
  return kUnits;
}

std::optional<std::string> CanonicalByteUnit(std::string_view text) {
  for (const auto& unit : ByteUnits()) {
    if (ToLower(unit) == ToLower(text)) return unit;
  }
  return std::nullopt;
}

bool IsGidUnit(std::string_view text) {
  return text == "gidint" || text == "gidhex" || text == "gidsubint" || text == "gidsubhex";
}

bool IsAddrUnit(std::string_view text) { return text == "hex" || text == "uint"; }

Status BadArg(const std::string& format, std::string_view arg, const std::string& why) {
  return Error(StatusCode::kInvalidArgument, "stats: format '" + format + "': bad argument '" +
                                                 std::string(arg) + "' (" + why + ")");
}

// Applies `unit` to the categories named by `key` ("time", "dur", ...; "" = infer from
// the unit itself). Returns false when the unit does not fit.
bool ApplyUnit(DisplayUnits& units, std::string_view key, std::string_view unit) {
  bool any = key.empty();
  bool is_time = key == "time" || key == "ts" || key == "dur" || (any && !unit.empty());
  if (is_time) {
    Result<std::string> time = NormalizeTimeUnit(unit);
    if (time.ok()) {
      if (key != "dur") units.ts = time.value();
      if (key != "ts") units.dur = time.value();
      return true;
    }
    if (!any) return false;
  }
  if (any || key == "bytes" || key == "mem" || key == "thru") {
    if (auto bytes = CanonicalByteUnit(unit)) {
      if (key != "thru") units.mem = *bytes;
      if (key != "mem") units.thru = *bytes;
      return true;
    }
    if (!any) return false;
  }
  if ((any || key == "gid") && IsGidUnit(unit)) {
    units.gid = std::string(unit);
    return true;
  }
  if ((any || key == "addr") && IsAddrUnit(unit)) {
    units.addr = std::string(unit);
    return true;
  }
  return (any || key == "ratio") && unit == "%";
}

bool IsUnitKey(std::string_view key) {
  return key == "time" || key == "ts" || key == "dur" || key == "bytes" || key == "mem" ||
         key == "thru" || key == "gid" || key == "addr" || key == "ratio";
}

struct FormatTraits {
  bool columns = false;  // column, table
  bool nohdr = false;
  bool esc = false;
  bool raw = false;
  bool html_doc = false;
};

FormatTraits TraitsOf(const std::string& name) {
  FormatTraits traits;
  traits.columns = name == "column" || name == "table";
  traits.nohdr = traits.columns || name == "csv" || name == "tsv";
  traits.esc = name == "tsv";
  traits.raw = name == "csv" || name == "tsv";
  traits.html_doc = name == "hdoc";
  return traits;
}

// Handles one `key=value` argument.
Status ApplyKeyValue(const std::string& format, const FormatTraits& traits, std::string_view arg,
                     FormatOptions& options) {
  size_t eq = arg.find('=');
  std::string_view key = arg.substr(0, eq);
  std::string_view value = arg.substr(eq + 1);
  if (IsUnitKey(key)) {
    if (!ApplyUnit(options.units, key, value)) return BadArg(format, arg, "unit does not fit");
    return OkStatus();
  }
  if (traits.columns && (key == "autolines" || key == "colmax")) {
    std::optional<int64_t> n = ParseInt64(value);
    if (!n || *n < 0 || *n > 1000000000) return BadArg(format, arg, "expected a count >= 0");
    (key == "autolines" ? options.autolines : options.colmax) = static_cast<int>(*n);
    return OkStatus();
  }
  if (traits.html_doc && key == "title") {
    options.title = std::string(value);
    return OkStatus();
  }
  if (traits.html_doc && key == "css") {
    options.css = std::string(value);
    return OkStatus();
  }
  return BadArg(format, arg, "not an argument of this format");
}

Status ApplyArg(const std::string& format, const FormatTraits& traits, std::string_view arg,
                FormatOptions& options) {
  struct Keyword {
    const char* name;
    bool allowed;
    bool* flag;
  };
  const Keyword keywords[] = {
      {"noconv", true, &options.noconv},         {"nohdrunit", true, &options.nohdrunit},
      {"nohdr", traits.nohdr, &options.nohdr},   {"esc", traits.esc, &options.esc},
      {"nofmt", traits.columns, &options.nofmt}, {"raw", traits.raw, &options.raw},
  };
  for (const auto& keyword : keywords) {
    if (keyword.allowed && arg == keyword.name) {
      *keyword.flag = true;
      return OkStatus();
    }
  }
  if (traits.columns && arg == "nolimit") {  // older nsys spelling of colmax=0
    options.colmax = 0;
    return OkStatus();
  }
  if (arg.find('=') != std::string_view::npos) {
    return ApplyKeyValue(format, traits, arg, options);
  }
  if (traits.columns && arg == ".") {
    options.widths.push_back(kAutoWidth);
    return OkStatus();
  }
  if (traits.columns && !arg.empty() && arg[0] >= '0' && arg[0] <= '9') {
    std::optional<int64_t> n = ParseInt64(arg);
    if (!n || *n > 100000) return BadArg(format, arg, "expected a column width");
    options.widths.push_back(static_cast<int>(*n));
    return OkStatus();
  }
  if (!arg.empty() && ApplyUnit(options.units, "", arg)) return OkStatus();
  return BadArg(format, arg, "not an argument of this format");
}

}  // namespace

Result<FormatOptions> ParseFormatOptions(const FormatRequest& request,
                                         const std::string& timeunit) {
  FormatOptions options;
  if (!timeunit.empty()) {
    GSYS_ASSIGN_OR_RETURN(std::string unit, NormalizeTimeUnit(timeunit));
    options.units.ts = unit;
    options.units.dur = unit;
  }
  FormatTraits traits = TraitsOf(request.name);
  for (const auto& arg : request.args) {
    GSYS_RETURN_IF_ERROR(ApplyArg(request.name, traits, arg, options));
  }
  return options;
}

}  // namespace gsys::analysis
