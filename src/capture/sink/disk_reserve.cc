// SPDX-License-Identifier: Apache-2.0
#include "capture/sink/disk_reserve.h"

namespace gsys::capture {

bool DiskReserve::Refresh(int64_t now_ns) {
  uint64_t available = 0, total = 0;
  if (!stat_(context_, &available, &total)) return false;
  checked_ = true;
  checked_ns_ = now_ns;
  available_ = available;
  total_ = total;
  reserve_ =
      configured_ == kDefaultRule ? DefaultReserve(total) : static_cast<uint64_t>(configured_);
  written_since_ = 0;
  return true;
}

bool DiskReserve::Allows(uint64_t bytes, int64_t now_ns) {
  if (!enabled()) return true;
  bool fresh = false;
  if (!checked_ || now_ns - checked_ns_ >= kRefreshNs || written_since_ >= kRefreshBytes) {
    if (!Refresh(now_ns)) return true;
    fresh = true;
  }
  auto fits = [&] {
    uint64_t estimate = available_ > written_since_ ? available_ - written_since_ : 0;
    return estimate >= bytes && estimate - bytes >= reserve_;
  };
  if (!fits()) {
    // Decide on a fresh figure: others may have freed space since the last one.
    if (!fresh && !Refresh(now_ns)) return true;
    if (!fits()) return false;
  }
  written_since_ += bytes;
  return true;
}

}  // namespace gsys::capture
