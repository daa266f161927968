// SPDX-License-Identifier: Apache-2.0
#include "launcher/resolve_output.h"

namespace gsys::launcher {

Result<std::string> ResolveOutputPattern(const std::string& pattern, const OutputNameContext& ctx,
                                         const std::string& verb, const std::string& confine_to) {
  PatternExpander expand = [&](const ValueLookup& values) {
    OutputNameContext c = ctx;
    c.getenv = values;
    return ExpandOutputPattern(pattern, c);
  };
  OutputPathRules rules{(verb.empty() ? "" : verb + ": ") + "bad --output '" + pattern + "'",
                        confine_to};
  return ResolveOutputPath(expand, ctx.getenv, rules);
}

}  // namespace gsys::launcher
