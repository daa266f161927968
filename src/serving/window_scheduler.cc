// SPDX-License-Identifier: Apache-2.0
#include "serving/window_scheduler.h"

namespace gsys::serving {

WindowScheduler::Action WindowScheduler::Tick(int64_t now, bool open) {
  if (open) {
    // A window lasts `duration` from when it really opened (a busy host may open it late).
    if (now < opened_at_ + duration_) return Action::kNone;
    if (repeat_ <= 0) finished_ = true;
    return Action::kClose;
  }
  if (finished_) return Action::kNone;
  // A window whose whole span passed while the scheduler was not called is skipped.
  while (repeat_ > 0 && now >= EndOf(next_)) ++next_;
  if (repeat_ <= 0 && next_ > 0) {
    finished_ = true;
    return Action::kNone;
  }
  if (now < StartOf(next_)) return Action::kNone;
  ++next_;
  opened_at_ = now;
  return Action::kOpen;
}

}  // namespace gsys::serving
