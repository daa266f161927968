// SPDX-License-Identifier: Apache-2.0
#include "export/chrome/trace_event_json.h"

#include "common/saturating.h"
#include "export/json_text.h"

namespace gsys::export_ {

namespace {

// ",\n{"ph":"M","name":WHAT,"pid":P,"tid":T,"args":{KEY:" (the value and "}}" follow).
void MetaHead(std::string& out, std::string_view what, int64_t pid, int64_t tid,
              std::string_view key) {
  out.append(",\n{\"ph\":\"M\",\"name\":");
  AppendJsonString(out, what);
  out.append(",\"pid\":");
  AppendInt(out, pid);
  out.append(",\"tid\":");
  AppendInt(out, tid);
  out.append(",\"args\":{");
  AppendJsonString(out, key);
  out.push_back(':');
}

}  // namespace

void AppendMeta(std::string& out, std::string_view what, int64_t pid, int64_t tid,
                std::string_view value, std::string_view key) {
  MetaHead(out, what, pid, tid, key);
  AppendJsonString(out, value);
  out.append("}}");
}

void AppendMetaInt(std::string& out, std::string_view what, int64_t pid, int64_t tid,
                   std::string_view key, int64_t value) {
  MetaHead(out, what, pid, tid, key);
  AppendInt(out, value);
  out.append("}}");
}

void AppendHead(std::string& out, std::string_view ph, int64_t pid, int64_t tid, int64_t ts,
                std::string_view cat, std::string_view name) {
  out.append(",\n{\"ph\":");
  AppendJsonString(out, ph);
  out.append(",\"cat\":");
  AppendJsonString(out, cat);
  out.append(",\"name\":");
  AppendJsonString(out, name);
  out.append(",\"pid\":");
  AppendInt(out, pid);
  out.append(",\"tid\":");
  AppendInt(out, tid);
  out.append(",\"ts\":");
  AppendMicros(out, ts);
}

void AppendArgs(std::string& out, const TimelineEvent& e, std::optional<int64_t> external_id) {
  out.append(",\"args\":{");
  if (external_id) {
    out.append("\"External id\":");
    AppendInt(out, *external_id);
  }
  const int64_t* bytes = nullptr;
  for (size_t i = 0; i < e.num_args; ++i) {
    const EventArg& a = e.args[i];
    if (i > 0 || external_id) out.push_back(',');
    bool triple = (a.key == "grid x" || a.key == "block x") && i + 2 < e.num_args;
    if (triple) {
      out.append(a.key == "grid x" ? "\"grid\":[" : "\"block\":[");
      for (size_t k = 0; k < 3; ++k) {
        if (k > 0) out.push_back(',');
        AppendInt(out, e.args[i + k].int_value);
      }
      out.push_back(']');
      i += 2;
      continue;
    }
    AppendJsonString(out, a.key);
    out.push_back(':');
    if (a.is_string) {
      AppendJsonString(out, a.string_value);
    } else {
      AppendInt(out, a.int_value);
      if (a.key == "bytes") bytes = &a.int_value;
    }
  }
  // bytes per ns is GB/s.
  bool copy = e.kind == EventKind::kMemcpy || e.kind == EventKind::kMemset;
  if (copy && bytes != nullptr && e.end > e.start) {
    out.append(",\"memory bandwidth (GB/s)\":");
    AppendDouble(out,
                 static_cast<double>(*bytes) / static_cast<double>(SaturatingSub(e.end, e.start)));
  }
  out.push_back('}');
}

}  // namespace gsys::export_
