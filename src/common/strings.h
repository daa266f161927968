// SPDX-License-Identifier: Apache-2.0
// Small string helpers shared by every module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gsys {

// Splits `text` on `sep`, keeping empty fields ("a,,b" -> {"a","","b"}).
std::vector<std::string> Split(std::string_view text, char sep);

// Joins `parts` with `sep`.
std::string Join(const std::vector<std::string>& parts, std::string_view sep);

std::string ToLower(std::string_view text);
bool StartsWith(std::string_view text, std::string_view prefix);
bool EndsWith(std::string_view text, std::string_view suffix);
std::string_view Trim(std::string_view text);

// Parses a whole decimal int64; nullopt on any junk or overflow.
std::optional<int64_t> ParseInt64(std::string_view text);

// Levenshtein distance, for "did you mean" suggestions.
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo.
std::optional<std::string> ClosestMatch(std::string_view word,
                                        const std::vector<std::string>& candidates);

// Inserts thousands separators into the integer part of a decimal number text:
// "1234567.5" -> "1,234,567.5", "-1234" -> "-1,234".
std::string GroupThousands(std::string_view number);

}  // namespace gsys
