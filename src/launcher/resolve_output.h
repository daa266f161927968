// SPDX-License-Identifier: Apache-2.0
// -o patterns (output_name.h) through the one output-path resolver (common/output_path.h):
// what `gsys profile`, `launch`, `wrap` and live-session windows call instead of expanding a
// pattern themselves, so a %q{} value can neither climb with `..` nor make the name absolute.
#pragma once

#include <string>

#include "common/output_path.h"
#include "common/status.h"
#include "launcher/output_name.h"

namespace gsys::launcher {

// Expands `pattern` as ExpandOutputPattern does and applies the resolver's rules; `verb`
// prefixes messages ("profile"; "" = none), `confine_to` as in OutputPathRules.
Result<std::string> ResolveOutputPattern(const std::string& pattern, const OutputNameContext& ctx,
                                         const std::string& verb,
                                         const std::string& confine_to = "");

}  // namespace gsys::launcher
