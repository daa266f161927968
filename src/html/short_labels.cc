// SPDX-License-Identifier: Apache-2.0
// ShortLabels: readable, distinct chart labels for long (templated) kernel names.
#include <algorithm>
#include <cctype>
#include <map>

#include "html/markup.h"

namespace gsys::html {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

size_t Chars(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "void ns::f<ns::T>(int, float)" -> "f<T>(…)".
std::string Compact(std::string_view text) {
  if (text.substr(0, 5) == "void ") text.remove_prefix(5);
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (IdentChar(text[i]) && (i == 0 || !IdentChar(text[i - 1]))) {
      size_t j = i;
      while (j < text.size() && IdentChar(text[j])) ++j;
      if (text.substr(j, 2) == "::") {  // a qualifier: drop it with its "::"
        i = j + 2;
        continue;
      }
      out.append(text.substr(i, j - i));
      i = j;
      continue;
    }
    if (text[i] == '(') {  // a parenthesized group: keep its parentheses only
      int depth = 0;
      size_t j = i;
      for (; j < text.size(); ++j) {
        if (text[j] == '(') ++depth;
        if (text[j] == ')' && --depth == 0) break;
      }
      out += j == i + 1 ? "()" : "(" + std::string(kEllipsis) + ")";
      i = j + 1;
      continue;
    }
    out += text[i++];
  }
  return out;
}

// The first `head` characters, "…", then `max_chars - head - 1` characters from byte `at` on
// (ending with "…" when the text goes on).
std::string ElideAround(std::string_view text, size_t max_chars, size_t at) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  size_t head = std::min<size_t>(max_chars / 3, 16);
  size_t room = max_chars - head - 2;  // two ellipses
  size_t first =
      static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), at) - starts.begin());
  first = first > 0 ? first - 1 : 0;
  first = first > room / 3 ? first - room / 3 : 0;
  if (first <= head) return ElideMiddle(text, max_chars);
  size_t last = std::min(starts.size(), first + room + 1);  // one more if no ellipsis at the end
  bool open = last < starts.size();
  if (open) last = first + room;
  std::string out(text.substr(0, starts[head]));
  out += kEllipsis;
  out += text.substr(starts[first],
                     (last < starts.size() ? starts[last] : text.size()) - starts[first]);
  if (open) out += kEllipsis;
  return out;
}

}  // namespace

std::vector<std::string> ShortLabels(const std::vector<std::string>& labels, size_t max_chars) {
  std::vector<std::string> out, compact;
  for (const std::string& label : labels) {
    compact.push_back(Chars(label) <= max_chars ? label : Compact(label));
    out.push_back(ElideMiddle(compact.back(), max_chars));
  }
  if (max_chars < 8) return out;
  std::map<std::string, std::vector<size_t>> same;
  for (size_t i = 0; i < out.size(); ++i) same[out[i]].push_back(i);
  for (const auto& [text, group] : same) {
    if (group.size() < 2) continue;
    for (size_t i : group) {
      size_t at = 0;  // where this name first differs from another of the group
      for (size_t j : group) {
        if (j == i || compact[j] == compact[i]) continue;
        auto diff = std::mismatch(compact[i].begin(), compact[i].end(), compact[j].begin(),
                                  compact[j].end());
        at = std::max(at, static_cast<size_t>(diff.first - compact[i].begin()));
      }
      if (at > 0) out[i] = ElideAround(compact[i], max_chars, at);
    }
  }
  return out;
}

}  // namespace gsys::html
