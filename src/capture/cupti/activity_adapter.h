// SPDX-License-Identifier: Apache-2.0
// ActivityAdapter: turns CUPTI activity records (CUpti_Activity*) into gsys CUDA records
// (format/cuda_records.h) on a RecordSink. It is the seam the GPU-free tests use: they build
// CUpti_Activity* structs by hand and check the records that come out (Kineto pattern).
//
// Threading: one thread at a time (the tracer holds its decode lock). Names are interned:
// each distinct kernel name and API function gets a kCudaString record before first use.
// Only fields present in every record version since CUDA 12.0 are read, except where
// `cupti_version` says the newer fields exist (record structs grow by appending).
#pragma once

#include <cupti.h>

#include <cstdint>
#include <string>
#include <unordered_map>

#include "capture/cupti/record_sink.h"

namespace gsys::capture::cupti {

// Returns the function name of `cbid` in `domain` (cuptiGetCallbackName), or nullptr.
using CallbackNameFn = const char* (*)(void* ctx, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid);

struct AdapterStats {
  uint64_t records = 0;  // activity records handled
  uint64_t ignored = 0;  // kinds gsys does not record
  uint64_t dropped = 0;  // sink refused the record
};

class ActivityAdapter {
 public:
  ActivityAdapter(RecordSink* sink, CallbackNameFn names, void* names_ctx, uint32_t cupti_version)
      : sink_(sink), names_(names), names_ctx_(names_ctx), cupti_version_(cupti_version) {}

  // Decodes one activity record into zero or more records on the sink.
  void Handle(const CUpti_Activity* record);
  const AdapterStats& stats() const { return stats_; }

 private:
  void OnApi(const CUpti_ActivityAPI& r, CUpti_CallbackDomain domain);
  void OnKernel(const CUpti_ActivityKernel10& r);
  void OnMemcpy(const CUpti_ActivityMemcpy6& r);
  void OnMemcpyPeer(const CUpti_ActivityMemcpyPtoP4& r);
  void OnMemset(const CUpti_ActivityMemset4& r);
  void OnSync(const CUpti_ActivitySynchronization2& r);
  void OnGraph(const CUpti_ActivityGraphTrace2& r);
  void OnMemory(const CUpti_ActivityMemory4& r);
  void OnDevice(const CUpti_ActivityDevice5& r);
  void OnContext(const CUpti_ActivityContext3& r);
  void OnStream(const CUpti_ActivityStream& r);
  void OnOverhead(const CUpti_ActivityOverhead3& r);

  // Id of `name`, emitting a kCudaString record the first time. 0 for null/empty.
  uint32_t InternKernelName(const char* name);
  uint32_t InternApiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
  uint32_t EmitString(const std::string& text);
  template <typename Body>
  void Emit(format::RecordKind kind, uint32_t tid, const Body& body, const char* text = nullptr,
            size_t text_len = 0) {
    if (!sink_->Add(kind, tid, body, text, text_len)) ++stats_.dropped;
  }

  struct NameEntry {
    std::string text;
    uint32_t id;
  };

  RecordSink* sink_;
  CallbackNameFn names_;
  void* names_ctx_;
  uint32_t cupti_version_;
  uint32_t next_string_id_ = 1;
  std::unordered_map<const char*, NameEntry> kernel_names_by_ptr_;
  std::unordered_map<std::string, uint32_t> strings_;
  std::unordered_map<uint64_t, uint32_t> api_names_;
  AdapterStats stats_;
};

}  // namespace gsys::capture::cupti
