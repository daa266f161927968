// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/sql_template.h"

#include <algorithm>

namespace gsys::analysis {
namespace {

constexpr std::string_view kOpen = "{{";
constexpr std::string_view kClose = "}}";

Status TemplateError(std::string_view name, const std::string& what) {
  return Error(StatusCode::kInternal, "stats: report '" + std::string(name) + "': " + what);
}

// Renders text[pos, end) into out; stops at the closing tag `{{/section}}` when `section` is not
// empty, leaving `pos` just after it.
Status RenderRange(std::string_view name, std::string_view text, size_t& pos,
                   const std::string& section, const TemplateContext& ctx, bool emit,
                   std::string& out) {
  while (pos < text.size()) {
    size_t open = text.find(kOpen, pos);
    if (open == std::string_view::npos) {
      if (emit) out.append(text.substr(pos));
      pos = text.size();
      break;
    }
    if (emit) out.append(text.substr(pos, open - pos));
    size_t close = text.find(kClose, open + kOpen.size());
    if (close == std::string_view::npos) return TemplateError(name, "unterminated '{{'");
    std::string tag(text.substr(open + kOpen.size(), close - open - kOpen.size()));
    pos = close + kClose.size();
    if (tag.empty()) return TemplateError(name, "empty template tag");
    char kind = tag[0];
    if (kind == '/') {
      if (tag.substr(1) != section) return TemplateError(name, "unexpected '{{" + tag + "}}'");
      return OkStatus();
    }
    if (kind == '#' || kind == '^') {
      std::string flag = tag.substr(1);
      auto it = ctx.flags.find(flag);
      if (it == ctx.flags.end()) return TemplateError(name, "unknown flag '" + flag + "'");
      bool keep = (kind == '#') == it->second;
      GSYS_RETURN_IF_ERROR(RenderRange(name, text, pos, flag, ctx, emit && keep, out));
      continue;
    }
    if (kind == '>') {
      std::string partial = tag.substr(1);
      std::string_view body = ctx.partials ? ctx.partials(partial) : std::string_view();
      if (body.empty()) return TemplateError(name, "unknown partial '" + partial + "'");
      size_t inner = 0;
      GSYS_RETURN_IF_ERROR(RenderRange(name, body, inner, "", ctx, emit, out));
      continue;
    }
    auto it = ctx.vars.find(tag);
    if (it == ctx.vars.end()) return TemplateError(name, "unknown variable '" + tag + "'");
    if (emit) out.append(it->second);
  }
  if (!section.empty()) return TemplateError(name, "section '" + section + "' is not closed");
  return OkStatus();
}

}  // namespace

Result<std::string> RenderSqlTemplate(std::string_view name, std::string_view text,
                                      const TemplateContext& context) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  GSYS_RETURN_IF_ERROR(RenderRange(name, text, pos, "", context, true, out));
  return out;
}

namespace {

void CollectTables(std::string_view text,
                   const std::function<std::string_view(std::string_view)>& partials, int depth,
                   std::vector<std::string>& tables) {
  constexpr std::string_view kHas = "has:";
  size_t pos = 0;
  while ((pos = text.find(kOpen, pos)) != std::string_view::npos) {
    size_t close = text.find(kClose, pos);
    if (close == std::string_view::npos) break;
    std::string_view tag = text.substr(pos + kOpen.size(), close - pos - kOpen.size());
    pos = close;
    if (!tag.empty() && tag[0] == '>' && partials && depth < 8) {
      CollectTables(partials(tag.substr(1)), partials, depth + 1, tables);
      continue;
    }
    if (tag.size() < 1 + kHas.size() || (tag[0] != '#' && tag[0] != '^')) continue;
    if (tag.substr(1, kHas.size()) != kHas) continue;
    std::string table(tag.substr(1 + kHas.size()));
    if (std::find(tables.begin(), tables.end(), table) == tables.end()) tables.push_back(table);
  }
}

}  // namespace

std::vector<std::string> TablesTestedByTemplate(
    std::string_view text, const std::function<std::string_view(std::string_view)>& partials) {
  std::vector<std::string> tables;
  CollectTables(text, partials, 0, tables);
  return tables;
}

}  // namespace gsys::analysis
