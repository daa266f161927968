// SPDX-License-Identifier: Apache-2.0
// The one resolver every output path goes through: `gsys profile`/`launch`/`wrap` -o patterns
// and live-session window names, `gsys start -o` requests, `recipe --output`, `export -o`,
// `summary -o` and the copies of `file://` uploads. Two rules (docs/reliability.md, P8):
//   - a value substituted into a pattern (%q{VAR}: the environment, which a scheduler, a job
//     name or a deployment fills) may neither add a `..` path component nor make the path
//     absolute: the pattern, not the value, decides the directory;
//   - no output path holds a control character (ESC, CR, LF, ...: it would be echoed into
//     every message that names the file);
//   - with `confine_to` (names that arrive from another process, upload copies), the path must
//     lie inside that directory: no `..` component, an absolute path only under it, and no
//     symbolic link on the way that leads out of it.
// Errors are one line (kInvalidArgument, exit 2) that starts with `rules.what`.
#pragma once

#include <functional>
#include <string>

#include "common/status.h"

namespace gsys {

// A pattern variable's value, nullptr when it is not set.
using ValueLookup = std::function<const char*(const std::string&)>;
// Expands a pattern with the values `lookup` gives.
using PatternExpander = std::function<Result<std::string>(const ValueLookup& lookup)>;

struct OutputPathRules {
  std::string what;        // message prefix, e.g. "profile: bad --output 'x/%q{A}'"
  std::string confine_to;  // "" = anywhere the pattern names; else relative paths start here
};

// Expands `expand` with `values`, checks the result against the same pattern expanded with a
// harmless value ("v") for every set variable, then applies `rules.confine_to`.
Result<std::string> ResolveOutputPath(const PatternExpander& expand, const ValueLookup& values,
                                      const OutputPathRules& rules);

// A path without pattern variables (nothing substituted): only `rules.confine_to` applies.
Result<std::string> ResolveOutputPath(const std::string& path, const OutputPathRules& rules);

// Number of `..` components of `path`.
int DotDotComponents(const std::string& path);

}  // namespace gsys
