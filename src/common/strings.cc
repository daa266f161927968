// SPDX-License-Identifier: Apache-2.0
#include "common/strings.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gsys {

std::vector<std::string> Split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (true) {
    size_t pos = text.find(sep, begin);
    if (pos == std::string_view::npos) {
      out.emplace_back(text.substr(begin));
      return out;
    }
    out.emplace_back(text.substr(begin, pos - begin));
    begin = pos + 1;
  }
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string ToLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<int64_t> ParseInt64(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

std::optional<std::string> ClosestMatch(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    size_t d = EditDistance(word, candidate);
    if (!best || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // Accept a typo of up to a third of the word's length (at least 2 edits),
  // or a candidate that contains the word.
  size_t limit = std::max<size_t>(2, word.size() / 3);
  if (best && (best_distance <= limit || best->find(word) != std::string::npos)) return best;
  for (const auto& candidate : candidates) {
    if (!word.empty() && candidate.find(word) != std::string::npos) return candidate;
  }
  return std::nullopt;
}

std::string GroupThousands(std::string_view number) {
  size_t begin = (!number.empty() && (number[0] == '-' || number[0] == '+')) ? 1 : 0;
  size_t end = begin;
  while (end < number.size() && std::isdigit(static_cast<unsigned char>(number[end]))) ++end;
  std::string out(number.substr(0, begin));
  size_t digits = end - begin;
  for (size_t i = 0; i < digits; ++i) {
    if (i && (digits - i) % 3 == 0) out += ',';
    out += number[begin + i];
  }
  out += number.substr(end);
  return out;
}

}  // namespace gsys
