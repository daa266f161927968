// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/external_ids.h"

namespace gsys::export_ {

std::optional<int64_t> ExternalIds::Of(const TimelineEvent& e, int64_t correlation) {
  if (IsGpuKind(e.kind)) {
    if (correlation == 0) return std::nullopt;
    if (auto it = current_.find(correlation); it != current_.end()) return it->second;
    if (auto it = previous_.find(correlation); it != previous_.end()) return it->second;
    return std::nullopt;
  }
  std::vector<Open>& stack = stacks_[e.global_tid];
  // Ranges nest on a thread and come before what they enclose: the innermost open range that
  // ends no earlier than `e` encloses it; one that ends earlier has closed (or, badly nested,
  // cannot be its op).
  while (!stack.empty() && stack.back().end < e.end) stack.pop_back();
  if (e.kind == EventKind::kNvtxRange) {
    int64_t id = next_++;
    stack.push_back(Open{e.end, id});
    return id;
  }
  if (e.kind != EventKind::kCudaApi || stack.empty()) return std::nullopt;
  int64_t id = stack.back().id;
  if (correlation != 0) {
    if (current_.size() >= kGeneration) {
      previous_ = std::move(current_);
      current_.clear();
    }
    current_[correlation] = id;
  }
  return id;
}

}  // namespace gsys::export_
