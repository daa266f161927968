// SPDX-License-Identifier: Apache-2.0
// Reads the top-level string fields of a JSON object (the container credentials endpoint's
// and instance metadata's credential documents). A pure, bounded function (fuzzable).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gsys::upload {

// Top-level members of the object in `text` whose values are strings (escapes decoded);
// other values (numbers, nested objects...) are validated and skipped. kBadInput on malformed
// JSON, nesting deeper than 32, or more than 1 MiB.
Result<std::map<std::string, std::string>> ParseJsonStringFields(std::string_view text);

}  // namespace gsys::upload
