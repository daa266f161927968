// SPDX-License-Identifier: Apache-2.0
// CaptureDomain: one source of events inside the injected library (nvtx, osrt; cuda joins in
// issue 4). Each domain owns a RecordKind range in format/record.h and writes only through
// sink/sink.h EmitRecord. The entry code drives every registered domain through the same
// lifecycle, so adding CUPTI capture is one new class plus one line in entry/domains.cc.
//
// Threading: Start/Stop/OnFork* run on whichever thread initializes, exits or forks; hot-path
// callbacks are the domain's own business and must follow docs/architecture.md, decision 2.
#pragma once

#include "capture/entry/env.h"

namespace gsys::capture {

class CaptureDomain {
 public:
  virtual ~CaptureDomain() = default;
  // Short lowercase name as in --trace ("nvtx", "osrt", "cuda").
  virtual const char* Name() const = 0;
  // Whether GSYS_TRACE asked for this domain.
  virtual bool Enabled(const CaptureConfig& config) const = 0;
  // Called once after the sink is running, only when Enabled().
  virtual void Start(const CaptureConfig& config) = 0;
  // Called before the final flush (exit, fatal signal): push pending data into the sink
  // (CUPTI: cuptiActivityFlushAll). Must be async-signal-tolerant.
  virtual void FlushPending() {}
  virtual void OnForkPrepare() {}
  virtual void OnForkParent() {}
  virtual void OnForkChild() {}
};

// Every domain compiled into the library, in start order; `count` receives the length.
CaptureDomain* const* AllCaptureDomains(int* count);

}  // namespace gsys::capture
