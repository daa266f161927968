// SPDX-License-Identifier: Apache-2.0
// TraceHandler: the RapidJSON SAX handler over a Kineto trace (Chrome trace-event JSON). It keeps
// one event at a time and hands it to a TraceSink when its object closes, so memory does not
// depend on the number of events. Unknown keys and nested values are skipped without being
// stored. Numbers arrive as text (kParseNumbersAsStringsFlag) and are converted exactly.
// Guards against hostile input: nesting deeper than kMaxDepth and strings longer than
// kMaxString stop or shorten (counted) instead of growing without bound.
// One thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "report/kineto/trace_event.h"

namespace gsys::report::kineto {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // false stops the parse (the sink's error explains why).
  virtual bool OnEvent(const TraceEvent& event) = 0;
  virtual void OnDevice(const DeviceProperties& device) = 0;
  virtual void OnDistributed(const DistributedInfo& info) = 0;
  // A top-level scalar other than the ones above ("traceName", "baseTimeNanoseconds", ...);
  // numbers as their text.
  virtual void OnTopScalar(const std::string& key, const std::string& value) = 0;
};

class TraceHandler {
 public:
  static constexpr size_t kMaxDepth = 128;
  static constexpr size_t kMaxString = 1 << 20;

  explicit TraceHandler(TraceSink* sink) : sink_(sink) {}

  // Set when the handler stopped the parse (not the JSON's fault alone).
  const std::string& error() const { return error_; }
  bool saw_trace_events() const { return saw_trace_events_; }
  uint64_t truncated_strings() const { return truncated_strings_; }
  // Entries of traceEvents that are not objects (skipped).
  uint64_t non_object_events() const { return non_object_events_; }

  // RapidJSON handler concept.
  bool Null() { return Scalar(Value::kNull, {}); }
  bool Bool(bool b) { return Scalar(Value::kBool, b ? "true" : "false"); }
  bool Int(int) { return Scalar(Value::kNumber, {}); }  // unused: numbers come as text
  bool Uint(unsigned) { return Scalar(Value::kNumber, {}); }
  bool Int64(int64_t) { return Scalar(Value::kNumber, {}); }
  bool Uint64(uint64_t) { return Scalar(Value::kNumber, {}); }
  bool Double(double) { return Scalar(Value::kNumber, {}); }
  bool RawNumber(const char* s, unsigned len, bool) { return Scalar(Value::kNumber, {s, len}); }
  bool String(const char* s, unsigned len, bool) { return Scalar(Value::kString, {s, len}); }
  bool Key(const char* s, unsigned len, bool);
  bool StartObject() { return Open(true); }
  bool EndObject(unsigned) { return Close(); }
  bool StartArray() { return Open(false); }
  bool EndArray(unsigned) { return Close(); }

 private:
  enum class Value { kNull, kBool, kNumber, kString };
  enum class Ctx { kRoot, kTop, kEvents, kEvent, kArgs, kArgDims, kDevices, kDevice, kDist, kSkip };
  struct Frame {
    Ctx ctx;
    bool object;
  };

  bool Open(bool object);
  bool Close();
  bool Scalar(Value type, std::string_view text);
  void EventField(Value type, std::string_view text);
  void ArgField(Value type, std::string_view text);
  void TrackField(TrackId* id, Value type, std::string_view text);
  std::string Bounded(std::string_view text);

  TraceSink* sink_;
  std::vector<Frame> stack_;
  std::string key_;  // the last key of the innermost object
  TraceEvent event_;
  DeviceProperties device_;
  DistributedInfo dist_;
  std::string error_;
  bool saw_trace_events_ = false;
  uint64_t truncated_strings_ = 0;
  uint64_t non_object_events_ = 0;
  int dims_target_ = 0;  // kArgDims: 1 grid, 2 block
  int dims_n_ = 0;
};

}  // namespace gsys::report::kineto
