// SPDX-License-Identifier: Apache-2.0
// Chrome trace-event JSON pieces shared by the chrome and kineto exporters: the common fields of
// an event, "M" metadata, "args" from a TimelineEvent, and where GPU tracks go.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "export/timeline/timeline_event.h"

namespace gsys::export_ {

// GPU N is pid kGpuPidBase + N. Kineto writes GPU N as pid N, which collides with a host process
// of pid N (a 2-GPU torchrun export had pid 1 as both dumb-init and GPU 1). A report's pids fit in
// the 24 bits of a GlobalId (Linux caps pid_max at 2^22), so 2^24 + N is never a host pid; it is
// also the process_sort_index Kineto gives GPU N, so viewers order the tracks as Kineto's.
constexpr int64_t kGpuPidBase = int64_t{1} << 24;
inline int64_t GpuPid(int64_t device_id) { return kGpuPidBase + device_id; }

// Appends ",\n{"ph":"M","name":WHAT,"pid":P,"tid":T,"args":{KEY:VALUE}}" (KEY "name" by default).
void AppendMeta(std::string& out, std::string_view what, int64_t pid, int64_t tid,
                std::string_view value, std::string_view key = "name");
// As AppendMeta with an integer value ("process_sort_index" {"sort_index": N}).
void AppendMetaInt(std::string& out, std::string_view what, int64_t pid, int64_t tid,
                   std::string_view key, int64_t value);
// Appends ",\n{"ph":PH,"cat":CAT,"name":NAME,"pid":P,"tid":T,"ts":TS" (open: the caller closes).
void AppendHead(std::string& out, std::string_view ph, int64_t pid, int64_t tid, int64_t ts,
                std::string_view cat, std::string_view name);
// Appends ","args":{...}": "External id" first when `external_id` is set (Kineto's order), then
// `e`'s args ("grid x/y/z" and "block x/y/z" as [x,y,z] arrays, as Kineto writes them) and, for a
// memcpy or memset, "memory bandwidth (GB/s)".
void AppendArgs(std::string& out, const TimelineEvent& e,
                std::optional<int64_t> external_id = std::nullopt);

}  // namespace gsys::export_
