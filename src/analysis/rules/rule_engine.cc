// SPDX-License-Identifier: Apache-2.0
// Runs a rule: validate options, check the data it needs (SKIPPED otherwise), apply its own time or
// NVTX filter, expand its SQL template, run it, restore the reader's filter.
#include <algorithm>

#include "analysis/rules/native/native_stages.h"
#include "analysis/rules/rule_options.h"
#include "analysis/rules/rule_path.h"
#include "analysis/rules/rule_registry.h"
#include "analysis/rules/rules.h"
#include "analysis/stats/stats_engine.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis {
namespace {

using gsys::report::ReportReader;

Status UnknownRule(const std::string& name) {
  std::string msg = "analyze: unknown rule '" + name + "'";
  if (auto best = ClosestMatch(name, AllRuleNames())) {
    msg += " (did you mean '" + *best + "'?)";
  } else {
    msg += " (rules: " + Join(AllRuleNames(), ", ") + ")";
  }
  return Error(StatusCode::kInvalidArgument, msg);
}

std::string ReplaceDbFile(std::string_view text, const std::string& path) {
  std::string out(text);
  const std::string token = "{DBFILE}";
  for (size_t pos = out.find(token); pos != std::string::npos; pos = out.find(token, pos)) {
    out.replace(pos, token.size(), path);
    pos += path.size();
  }
  return out;
}

// The filter the rule's start=/end=/nvtx= options ask for, as nsys's filter_time_range builds it:
// nvtx= gives the first matching range's window and thread (push/pop) or process (start/end);
// explicit start/end override the window; without nvtx= start defaults to 0.
Result<std::optional<ReportReader::NvtxFilter>> RuleFilter(ReportReader& reader,
                                                           const BoundRuleArgs& args,
                                                           std::string* not_found) {
  if (!args.start && !args.end && !args.nvtx) return std::optional<ReportReader::NvtxFilter>();
  ReportReader::NvtxFilter filter;
  if (args.nvtx) {
    auto resolved = reader.ResolveNvtxFilter(*args.nvtx);
    if (!resolved.ok()) {
      *not_found = "NVTX range '" + *args.nvtx + "' could not be found.";
      return std::optional<ReportReader::NvtxFilter>();
    }
    filter = resolved.value();
  } else {
    filter.window.start = 0;
  }
  if (args.start) filter.window.start = *args.start;
  if (args.end) filter.window.end = *args.end;
  if (filter.window.start > filter.window.end) {
    return Error(StatusCode::kInvalidArgument,
                 "analyze: the start time cannot be greater than the end time");
  }
  return std::optional<ReportReader::NvtxFilter>(filter);
}

// The rule's table: its C++ stage and the SQL that finishes it where it has one and the data
// suits it (native/native_stages.h), else the rule's SQL.
Result<ResultTable> RunRuleQuery(ReportReader& reader, const RuleSpec& spec,
                                 const BoundRuleArgs& args, RulePath path) {
  std::string_view text = RuleSql(spec.name);
  if (text.empty()) {
    return Error(StatusCode::kInternal,
                 "analyze: no SQL embedded for rule '" + std::string(spec.name) + "'");
  }
  TemplateContext ctx = args.ctx;
  ctx.partials = [](std::string_view partial) { return RuleSql("_" + std::string(partial)); };
  native::Stage stage = path == RulePath::kSqlOnly ? nullptr : native::FindStage(spec.name);
  bool staged = false;
  if (stage) {
    auto done = stage(reader, args.values);
    if (!done.ok()) {
      return Error(StatusCode::kBadInput, "analyze: rule '" + std::string(spec.name) +
                                              "' failed: " + done.status().message());
    }
    staged = done.value();
  }
  if (path == RulePath::kNativeOnly && !staged) {
    return Error(StatusCode::kUnsupported,
                 "analyze: rule '" + std::string(spec.name) + "': no C++ stage for this data");
  }
  if (staged) text = RuleSql("_" + std::string(spec.name) + "_native");
  ctx.flags["unique_correlation"] = reader.correlation_ids_unique().value_or(false);
  for (const std::string& table : TablesTestedByTemplate(text, ctx.partials)) {
    GSYS_ASSIGN_OR_RETURN(bool present, reader.HasRows(table));
    ctx.flags["has:" + table] = present;
  }
  GSYS_ASSIGN_OR_RETURN(std::string sql, RenderSqlTemplate(spec.name, text, ctx));
  auto table = QueryResultTable(reader.db(), sql);
  if (!table.ok()) {
    return Error(StatusCode::kBadInput, "analyze: rule '" + std::string(spec.name) +
                                            "' failed: " + table.status().message());
  }
  return table;
}

std::string RowLimitNote(int64_t limit, size_t rows) {
  if (limit <= 0 || rows < static_cast<size_t>(limit)) return "";
  if (limit == 1) return "Only the top result is displayed. More data may be available.";
  return "Only the top " + std::to_string(rows) +
         " results are displayed. More data may be available.";
}

}  // namespace

std::vector<std::string> AllRuleNames() {
  std::vector<std::string> names;
  for (const RuleSpec& spec : RuleSpecs()) names.emplace_back(spec.name);
  return names;
}

std::vector<std::string> DefaultRules() {
  // nsys 2025.3.1's default order.
  static constexpr std::string_view kOrder[] = {
      "cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync", "cuda_api_sync",
      "gpu_gaps",          "gpu_time_util",    "dx12_mem_ops"};
  std::vector<std::string> names;
  for (std::string_view name : kOrder) {
    const RuleSpec* spec = FindRuleSpec(name);
    if (spec && spec->in_default_set) names.emplace_back(name);
  }
  return names;
}

Result<std::vector<RuleRequest>> ParseRuleList(const std::vector<std::string>& flag_values) {
  std::vector<RuleRequest> requests;
  for (const std::string& value : flag_values) {
    for (const std::string& item : Split(value, ',')) {
      if (item.empty()) {
        if (requests.empty()) {
          return Error(StatusCode::kInvalidArgument,
                       "analyze: the rule list starts with an empty item (nothing to repeat)");
        }
        requests.push_back(requests.back());
        continue;
      }
      std::vector<std::string> parts = Split(item, ':');
      RuleRequest request{parts[0], std::vector<std::string>(parts.begin() + 1, parts.end())};
      if (request.name == "all") {
        for (const std::string& name : AllRuleNames()) requests.push_back({name, request.args});
        continue;
      }
      const RuleSpec* spec = FindRuleSpec(request.name);
      if (!spec) return UnknownRule(request.name);
      GSYS_RETURN_IF_ERROR(BindRuleArgs(*spec, request.args).status());
      requests.push_back(std::move(request));
    }
  }
  // Common options given with "all" must still be valid for every rule.
  for (const RuleRequest& r : requests) {
    GSYS_RETURN_IF_ERROR(BindRuleArgs(*FindRuleSpec(r.name), r.args).status());
  }
  return requests;
}

Result<RuleOutcome> RunRule(ReportReader& reader, const RuleRequest& request,
                            const std::string& shown_input) {
  return RunRuleWith(reader, request, shown_input, RulePath::kAuto);
}

Result<RuleOutcome> RunRuleWith(ReportReader& reader, const RuleRequest& request,
                                const std::string& shown_input, RulePath path) {
  const RuleSpec* spec = FindRuleSpec(request.name);
  if (!spec) return UnknownRule(request.name);
  GSYS_ASSIGN_OR_RETURN(BoundRuleArgs args, BindRuleArgs(*spec, request.args));
  RuleOutcome outcome;
  outcome.title = std::string(spec->title);
  outcome.advice = ExpandMessage(spec->advice, args.values);
  outcome.no_result = ExpandMessage(spec->no_result, args.values);
  for (const RuleNeed& need : spec->needs) {
    bool found = false;
    for (std::string_view table : need.any_of) {
      GSYS_ASSIGN_OR_RETURN(found, reader.HasRows(table));
      if (found) break;
    }
    if (!found) {
      outcome.skipped = true;
      outcome.skip_reason = ReplaceDbFile(need.reason, shown_input);
      return outcome;
    }
  }
  if (RuleSql(spec->name).empty()) {  // a rule known by name only (dx12_mem_ops)
    return Error(StatusCode::kUnsupported, "analyze: rule '" + request.name +
                                               "': gsys cannot analyze the data this rule reads");
  }
  std::string not_found;
  GSYS_ASSIGN_OR_RETURN(auto filter, RuleFilter(reader, args, &not_found));
  if (!not_found.empty()) {
    outcome.skipped = true;
    outcome.skip_reason = not_found;
    return outcome;
  }
  ReportReader::NvtxFilter saved = reader.ActiveFilter();
  if (filter) GSYS_RETURN_IF_ERROR(reader.SetNvtxFilter(*filter));
  auto table = RunRuleQuery(reader, *spec, args, path);
  if (filter) GSYS_RETURN_IF_ERROR(reader.SetNvtxFilter(saved));
  if (!table.ok()) return table.status();
  outcome.table = std::move(table).value();
  outcome.note = RowLimitNote(args.rows, outcome.table.rows.size());
  return outcome;
}

Result<std::string> RuleHelp(const std::string& name) {
  if (name.empty()) {
    std::string text = "The following built-in rules are available:\n\n";
    for (const RuleSpec& s : RuleSpecs()) {
      std::string left = "  " + std::string(s.name);
      if (left.size() < 22) left.resize(22, ' ');
      text += left + " -- " + std::string(s.title) + "\n";
    }
    text += "\nThe default set (no -r): " + Join(DefaultRules(), ", ") + "\n";
    return text + "Run --help-rules NAME (or ALL) for a rule's options and columns.\n";
  }
  if (name == "ALL") {
    std::string all;
    for (const RuleSpec& spec : RuleSpecs()) {
      GSYS_ASSIGN_OR_RETURN(std::string one, RuleHelp(std::string(spec.name)));
      all += one + "\n";
    }
    return all;
  }
  const RuleSpec* spec = FindRuleSpec(name);
  if (!spec) return UnknownRule(name);
  std::string text = std::string(spec->name) + "[:<option>[:<option>]...] -- " +
                     std::string(spec->title) + "\n\n" + RuleOptionsHelp(*spec) + "\n";
  return text + std::string(spec->description);
}

}  // namespace gsys::analysis
