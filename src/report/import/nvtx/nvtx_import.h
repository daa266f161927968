// SPDX-License-Identifier: Apache-2.0
// NvtxImport, the NVTX import module: push/pop, start/end, marks, domain and category names and
// registered strings (record kinds 16..23) into NVTX_EVENTS. Push/pop pairs are matched per
// (thread, domain) stack, start/end pairs by range id across threads, registered-string handles
// through the stream's own registration records (a forked child's stream replays its
// parent's). At Finish, --nvtx-domain-include/-exclude (session.meta) remove the domains left
// out (nvtx_domain_filter.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"
#include "format/record.h"
#include "report/import/import_module.h"

namespace gsys::report {

class NvtxImport : public ImportModule {
 public:
  explicit NvtxImport(const ImportContext& context) : context_(context) {}

  const char* name() const override { return "nvtx"; }
  bool Owns(format::RecordKind kind) const override;
  Status OnRecord(StreamContext& stream, const format::RecordView& r) override;
  void OnLoss(const StreamContext& stream, std::optional<uint32_t> tid) override;
  Status EndStream(StreamContext& stream) override;
  Status Finish(ImportSummary* summary) override;

 private:
  struct Open {
    format::NvtxEventBody body;
    std::string_view text;  // points into the mapped stream file
    uint32_t tid;
  };

  // The push/pop stack of (`tid`, `domain`); the last one used is cached because a thread's
  // records arrive in runs (one per flushed thread buffer). std::map nodes never move.
  std::vector<Open>& Stack(uint32_t tid, uint32_t domain) {
    uint64_t key = (uint64_t{tid} << 32) | domain;
    if (last_stack_ == nullptr || last_stack_key_ != key) {
      last_stack_ = &stacks_[{tid, domain}];
      last_stack_key_ = key;
    }
    return *last_stack_;
  }
  // Open push/pop ranges of every thread (a missing chunk) or of `tid` (a gap record) are
  // dropped and counted: their pops may be among lost records, so pairing them with a later pop
  // could invent a range. The stacks visited are erased, so each costs one cut after the record
  // that made it: a cut walking every stack ever seen made 40 000 gaps over 40 000 domains
  // take 37 s (issue 17 item 10).
  void CutAllOpenRanges();
  void CutOpenRanges(uint32_t tid);
  Status OnOpen(const format::RecordView& r);
  Status OnPop(StreamContext& stream, const format::RecordView& r);
  Status OnEnd(StreamContext& stream, const format::RecordView& r);
  Status OnMark(StreamContext& stream, const format::RecordView& r);
  Status OnName(StreamContext& stream, const format::RecordView& r);
  // Fills the message, attribute and payload columns of `row` from an opening record.
  void FillFromOpen(StreamContext& stream, const Open& open, NvtxRow* row);
  void Count(ImportCounter c, uint64_t n = 1) { (*context_.counters)[c] += n; }

  ImportContext context_;
  // Per stream (EndStream clears them).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Open>> stacks_;  // (tid, domain)
  std::vector<Open>* last_stack_ = nullptr;
  uint64_t last_stack_key_ = 0;
  // Keyed by stream values: SeededHash, so crafted ids cannot share one bucket.
  std::unordered_map<uint64_t, Open, SeededHash> starts_;         // range id
  std::unordered_map<uint64_t, int64_t, SeededHash> registered_;  // handle -> StringIds
  uint64_t rows_ = 0;
};

}  // namespace gsys::report
