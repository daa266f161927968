// SPDX-License-Identifier: Apache-2.0
// A very small SQL template language for report files:
//   {{name}}                 replaced by the value of variable `name`
//   {{#flag}} ... {{/flag}}  kept only when `flag` is true
//   {{^flag}} ... {{/flag}}  kept only when `flag` is false
//   {{>part}}                the text of partial `part` (reports/_part.sql), expanded in place
// Flags named `has:TABLE` are true when TABLE holds rows (supplied by the caller).
// Sections nest. Unknown variables or flags, and unbalanced sections, are errors: a report file
// must only use what its registry line declares.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace gsys::analysis {

struct TemplateContext {
  std::map<std::string, std::string> vars;
  std::map<std::string, bool> flags;
  std::function<std::string_view(std::string_view)> partials;  // name -> text; empty if unknown
};

// Expands `text`. `name` (the report) is only used in error messages.
Result<std::string> RenderSqlTemplate(std::string_view name, std::string_view text,
                                      const TemplateContext& context);

// Every table named in a `has:TABLE` section of `text` (and of the partials it includes, looked
// up through `partials`), in order of first use.
std::vector<std::string> TablesTestedByTemplate(
    std::string_view text, const std::function<std::string_view(std::string_view)>& partials);

}  // namespace gsys::analysis
