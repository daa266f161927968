// SPDX-License-Identifier: Apache-2.0
// PackTimeline: the timeline's events as base64 column arrays inside one script-safe JSON object.
// Little-endian columns (every machine gsys runs on, and every browser's typed arrays) decode in
// the page with one atob per column, far faster than parsing a million JSON numbers.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "html/timeline.h"

namespace gsys::html {
namespace {

template <typename T>
void Append(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// The first kMaxTimelineEvents by start, then sorted by (row, start, longer first) so that the
// script can binary-search each row and an enclosing range precedes what it encloses.
std::vector<TimelineEvent> Arrange(const std::vector<TimelineEvent>& events) {
  std::vector<TimelineEvent> kept = events;
  if (kept.size() > kMaxTimelineEvents) {
    std::nth_element(
        kept.begin(), kept.begin() + kMaxTimelineEvents, kept.end(),
        [](const TimelineEvent& a, const TimelineEvent& b) { return a.start_ns < b.start_ns; });
    kept.resize(kMaxTimelineEvents);
  }
  std::sort(kept.begin(), kept.end(), [](const TimelineEvent& a, const TimelineEvent& b) {
    if (a.row != b.row) return a.row < b.row;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.dur_ns > b.dur_ns;
  });
  return kept;
}

}  // namespace

uint32_t TimelineStrings::Id(std::string_view text) {
  auto [it, inserted] = ids_.try_emplace(std::string(text), static_cast<uint32_t>(values_.size()));
  if (inserted) values_.emplace_back(text);
  return it->second;
}

std::string ScriptSafeJsonString(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    // U+2028 and U+2029 (E2 80 A8/A9) end a line in older JavaScript parsers.
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xA8) {
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\'') {
      // '<' keeps "</script>" and "<!--" out of the block; the others so that no markup
      // character of a name appears raw anywhere in the page.
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                 static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                 static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (size_t rest = bytes.size() - i; rest > 0) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string PackTimeline(const Timeline& timeline) {
  std::vector<TimelineEvent> events = Arrange(timeline.events);
  std::string start, dur, name, detail, kind, depth;
  std::vector<size_t> row_start(timeline.rows.size() + 1, 0);
  for (const TimelineEvent& e : events) {
    if (e.row >= timeline.rows.size()) continue;  // GSYS_DCHECK-worthy; dropped, never drawn
    ++row_start[e.row + 1];
    Append(start, static_cast<double>(e.start_ns));
    Append(dur, static_cast<float>(std::max<int64_t>(0, e.dur_ns)));
    Append(name, e.name < timeline.strings.size() ? e.name : 0u);
    Append(detail, e.detail < timeline.strings.size() ? e.detail : 0u);
    Append(kind, static_cast<uint8_t>(e.kind));
    Append(depth, e.depth);
  }
  for (size_t r = 1; r < row_start.size(); ++r) row_start[r] += row_start[r - 1];
  size_t n = row_start.back();
  uint64_t left_out = timeline.left_out + (timeline.events.size() - events.size());
  std::string out = "{\"rows\":[";
  for (size_t r = 0; r < timeline.rows.size(); ++r) {
    out += (r ? ",{\"label\":" : "{\"label\":") + ScriptSafeJsonString(timeline.rows[r].label) +
           ",\"density\":" + (timeline.rows[r].density ? "true}" : "false}");
  }
  out += "],\"strings\":[";
  for (size_t s = 0; s < timeline.strings.size(); ++s) {
    if (s) out += ',';
    out += ScriptSafeJsonString(timeline.strings[s]);
  }
  out += "],\"n\":" + std::to_string(n) + ",\"rowStart\":[";
  for (size_t r = 0; r < row_start.size(); ++r) {
    if (r) out += ',';
    out += std::to_string(row_start[r]);
  }
  out += "],\"leftOut\":" + std::to_string(left_out);
  out += ",\"start\":\"" + Base64(start) + "\",\"dur\":\"" + Base64(dur) + "\",\"name\":\"" +
         Base64(name) + "\",\"detail\":\"" + Base64(detail) + "\",\"kind\":\"" + Base64(kind) +
         "\",\"depth\":\"" + Base64(depth) + "\"}";
  return out;
}

}  // namespace gsys::html
