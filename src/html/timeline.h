// SPDX-License-Identifier: Apache-2.0
// The timeline block of a page: events on rows (a GPU stream, a thread's NVTX ranges and marks,
// its OS runtime calls, its CPU samples, its scheduling), drawn by the page's inline script on
// a <canvas> that zooms and pans. The events travel inside the page as packed little-endian arrays
// in base64 (see PackTimeline), so a page of 1 M events stays near 30 bytes per event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gsys::html {

// Events beyond this are left out (the earliest by start are kept) with a note on the page.
inline constexpr size_t kMaxTimelineEvents = 1000000;
// Bytes in the page per event (packed arrays, before base64's 4/3): start f64, duration f32,
// name u32, detail u32, kind u8, depth u8. Names and details are shared through a string table.
inline constexpr size_t kTimelineBytesPerEvent = 8 + 4 + 4 + 4 + 1 + 1;

// What an event is; the script picks its color and drawing from it. Values are part of the
// page's data format (timeline_script.cc reads them).
enum class TimelineKind : uint8_t {
  kKernel = 0,
  kMemcpy = 1,
  kMemset = 2,
  kNvtx = 3,
  kOsrt = 4,
  kCudaApi = 5,
  kSample = 6,       // an instant; rows of samples are drawn as density
  kThreadState = 7,  // a thread running on a CPU (SCHED_EVENTS: a switch in to its switch out)
  kNvtxMark = 8,     // an instant on the thread's NVTX row
  kLibraryCall = 9,  // a cuDNN, cuBLAS or MPI call
};

struct TimelineRow {
  std::string label;     // e.g. "GPU 0 · stream 7", "python [123] · 124 · NVTX"
  bool density = false;  // a row of instants (CPU samples), drawn as samples per pixel
};

struct TimelineEvent {
  int64_t start_ns = 0;  // on the report's timeline (ns from session start)
  int64_t dur_ns = 0;
  uint32_t row = 0;     // index into Timeline::rows
  uint32_t name = 0;    // index into Timeline::strings
  uint32_t detail = 0;  // index into Timeline::strings (0: none); args shown on hover
  TimelineKind kind = TimelineKind::kKernel;
  uint8_t depth = 0;  // nesting lane within the row (NVTX ranges)
};

// Interns strings for Timeline::strings; id 0 is the empty string.
class TimelineStrings {
 public:
  TimelineStrings() { Id(""); }
  uint32_t Id(std::string_view text);
  std::vector<std::string> Take() { return std::move(values_); }
  size_t size() const { return values_.size(); }

 private:
  std::vector<std::string> values_;
  std::unordered_map<std::string, uint32_t> ids_;
};

struct Timeline {
  std::string title;
  std::vector<TimelineRow> rows;
  std::vector<std::string> strings;   // strings[0] == ""
  std::vector<TimelineEvent> events;  // any order
  // Events the reader found beyond those given (a cap applied before); added to the note.
  uint64_t left_out = 0;
  std::string left_out_hint;  // how to see them (e.g. the filter flags), appended to the note
};

// The data as one JSON object, safe to place inside <script type="application/json">: no '<',
// '>', '&' or "'" appears (they are \u-escaped in strings), nor U+2028/U+2029. Events are sorted by
// row, then start; at most kMaxTimelineEvents are kept (the earliest by start).
// Fields: rows [{label, density}], strings [..], n, rowStart [rows+1 offsets], start (b64 f64),
// dur (b64 f32), name, detail (b64 u32), kind, depth (b64 u8), leftOut.
std::string PackTimeline(const Timeline& timeline);

// `text` as a JSON string literal with the escapes above.
std::string ScriptSafeJsonString(std::string_view text);

// RFC 4648 base64 of `bytes`, with padding.
std::string Base64(std::string_view bytes);

}  // namespace gsys::html
