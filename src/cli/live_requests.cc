// SPDX-License-Identifier: Apache-2.0
#include "cli/live_requests.h"

#include <algorithm>
#include <csignal>

#include "common/one_line.h"
#include "common/strings.h"

namespace gsys::cli {
namespace {

using serving::KeyValues;

std::string Field(const serving::PendingRequest& r, const std::string& key) {
  auto it = r.fields.find(key);
  return it == r.fields.end() ? "" : it->second;
}

// `start -t LIST`: the capture library cannot add a domain to a running tree, nor drop one, so
// a domain the tree does not record is refused, and a narrower list is noted as ignored.
Result<std::string> CheckTrace(const LiveRunOptions& o, const std::string& wanted) {
  if (wanted.empty()) return std::string();
  std::string has = o.options.trace.empty() ? "none" : Join(o.options.trace, ",");
  for (const auto& d : Split(wanted, ',')) {
    if (d != "none" && !o.options.Traces(d)) {
      return Error(StatusCode::kInvalidArgument,
                   "-t " + d + ": the session's tree records " + has +
                       " only (gsys launch -t "
                       "chose it; the capture library cannot add a domain to a running tree)");
    }
  }
  if (wanted == has) return std::string();
  return "-t " + wanted +
         " is accepted and ignored: every window records what gsys launch -t "
         "chose (" +
         has + "); the capture library cannot switch domains in a running tree";
}

// `start -c nvtx [--capture-range-end stop|repeat[:N]]`: the number of range windows (0 = all).
Result<int> RangeWindows(const LiveRunOptions& o, const std::string& range,
                         const std::string& end) {
  if (!o.options.capture_range.empty()) {
    return Error(StatusCode::kInvalidArgument,
                 "this session's windows already come from capture "
                 "ranges (gsys launch -c " +
                     o.options.capture_range + ")");
  }
  if (range != "nvtx") {
    return Error(StatusCode::kInvalidArgument, "-c " + range +
                                                   ": give it to gsys launch (the "
                                                   "tree's CUDA hooks read it when they start)");
  }
  if (o.options.nvtx_capture.empty()) {
    return Error(StatusCode::kInvalidArgument,
                 "-c nvtx needs a session started with "
                 "-p/--nvtx-capture RANGE[@DOMAIN] (gsys launch -p ...): the tree reads it when "
                 "it starts");
  }
  if (end.empty() || end == "stop") return 1;
  if (end == "repeat") return 0;
  if (StartsWith(end, "repeat:")) {
    auto n = ParseInt64(end.substr(7));
    if (n && *n > 0 && *n < 1000000) return static_cast<int>(*n);
  }
  return Error(StatusCode::kInvalidArgument,
               "--capture-range-end " + end +
                   ": gsys start takes "
                   "stop or repeat[:N] (none: use gsys start without -c, then gsys stop)");
}

void Start(LiveState& st, const serving::PendingRequest& r, int64_t now) {
  serving::WindowRequest w;
  w.output = Field(r, "output");
  w.duration_ns = std::max<int64_t>(0, ParseInt64(Field(r, "duration_ns")).value_or(0));
  w.stats = Field(r, "stats") == "1";
  if (!Field(r, "exports").empty()) w.exports = Split(Field(r, "exports"), ',');
  auto note = CheckTrace(*st.options, Field(r, "trace"));
  if (!note.ok()) return serving::Respond(r, {{"error", note.status().message()}});
  if (Status ok = st.live->CheckRequest(w); !ok.ok()) {
    return serving::Respond(r, {{"error", ok.message()}});
  }
  if (st.live->window_open()) {
    return serving::Respond(r,
                            {{"error", "a capture window is already open (gsys stop closes it)"}});
  }
  if (st.live->range_armed()) {
    return serving::Respond(r, {{"error", "a capture range is armed (gsys cancel disarms it)"}});
  }
  KeyValues answer{{"window", std::to_string(st.live->windows() + 1)}};
  if (!note->empty()) answer["note"] = *note;
  std::string range = Field(r, "capture_range");
  if (!range.empty()) {
    auto n = RangeWindows(*st.options, range, Field(r, "capture_range_end"));
    if (!n.ok()) return serving::Respond(r, {{"error", n.status().message()}});
    if (w.duration_ns > 0)
      answer["note"] = "-d is ignored with -c nvtx: the range closes the window";
    w.duration_ns = 0;
    st.live->ArmRange(w, *n);
    st.range_armed_ever = true;
    answer["armed"] = "1";
    return serving::Respond(r, answer);
  }
  if (!Field(r, "capture_range_end").empty()) {
    answer["note"] = "--capture-range-end is accepted and ignored without -c nvtx";
  }
  st.live->Open(now, w);
  serving::Respond(r, answer);
}

void AnswerStatus(LiveState& st, const serving::PendingRequest& r, int64_t now) {
  serving::LiveStatus s = st.live->StatusAt(now);
  std::string state = s.window_open       ? "recording"
                      : s.range_recording ? "recording (capture range)"
                      : s.range_armed     ? "waiting for the capture range"
                                          : "idle";
  KeyValues a{
      {"state", state},
      {"open_for_ns", std::to_string(s.open_for_ns)},
      {"next_window", std::to_string(s.windows + 1)},
      {"written", std::to_string(s.written)},
      {"finalizing", std::to_string(s.finalizing)},
      {"failed", std::to_string(s.failed)},
      {"cancelled", std::to_string(s.cancelled)},
      {"trace", st.options->options.trace.empty() ? "none" : Join(st.options->options.trace, ",")}};
  const CaptureOptions& c = st.options->options;
  if (!c.capture_range.empty()) {
    a["capture_range"] = c.capture_range + (c.nvtx_capture.empty() ? "" : " -p " + c.nvtx_capture) +
                         " (gsys launch -c: a window per range)";
  } else if (s.range_armed) {
    a["capture_range"] =
        "nvtx -p " + c.nvtx_capture + " (gsys start -c: " +
        (s.range_windows_left < 0 ? std::string("every range")
                                  : std::to_string(s.range_windows_left) + " window(s) left") +
        ")";
  }
  serving::Respond(r, a);
}

}  // namespace

void HandleRequest(LiveState& st, const serving::PendingRequest& r, int64_t now) {
  const std::string verb = Field(r, "verb");
  if (verb == "start") {
    Start(st, r, now);
  } else if (verb == "stop") {
    int64_t keep = std::max<int64_t>(0, ParseInt64(Field(r, "keep_ns")).value_or(0));
    if (st.live->Close(now, nullptr, r.response_file, keep)) return;  // the finalizer answers
    std::string why = st.live->range_armed()
                          ? "no capture window is open (a capture range is armed: it closes its "
                            "window itself; gsys cancel disarms it)"
                          : "no capture window is open (gsys start opens one)";
    serving::Respond(r, {{"error", why}});
  } else if (verb == "cancel") {
    bool range = !st.live->window_open() && st.live->range_armed();
    if (!st.live->Cancel()) {
      return serving::Respond(r, {{"error",
                                   "nothing to cancel: no capture window is open and no "
                                   "capture range is armed"}});
    }
    serving::Respond(r, {{"cancelled", range ? "range" : "window"}});
  } else if (verb == "status") {
    AnswerStatus(st, r, now);
  } else if (verb == "shutdown") {
    st.end_requested = true;
    if (r.fields.count("kill") != 0) {
      int64_t sig = ParseInt64(Field(r, "kill")).value_or(SIGTERM);
      st.launch->kill_signal = sig >= 0 && sig < 65 ? static_cast<int>(sig) : SIGTERM;
    }
    serving::Respond(r, {{"ok", "1"}});
  } else {
    serving::Respond(r, {{"error", "unknown request '" + OneLine(verb, 64) + "'"}});
  }
}

}  // namespace gsys::cli
