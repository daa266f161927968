// SPDX-License-Identifier: Apache-2.0
// WindowScheduler: when serving-mode windows open and close. Window k (k = 0, 1, ...) spans
// [t0 + delay + k * repeat, that + duration] (the end counts from when it really opened); without
// repeat there is only window 0. Pure (the
// caller passes the clock), so the schedule is unit-tested without waiting.
#pragma once

#include <cstdint>

namespace gsys::serving {

class WindowScheduler {
 public:
  enum class Action { kNone, kOpen, kClose };

  // All values in ns; `repeat` 0 = one window.
  WindowScheduler(int64_t t0, int64_t delay, int64_t duration, int64_t repeat)
      : t0_(t0), delay_(delay), duration_(duration), repeat_(repeat) {}

  // What to do at `now`, given whether the scheduled window is open. Call until kNone.
  Action Tick(int64_t now, bool open);
  // Index of the next window to open (or of the open one).
  int64_t next_window() const { return next_; }
  // Start and end of window k.
  int64_t StartOf(int64_t k) const { return t0_ + delay_ + k * repeat_; }
  int64_t EndOf(int64_t k) const { return StartOf(k) + duration_; }
  // No window will open any more.
  bool finished() const { return finished_; }

 private:
  int64_t t0_, delay_, duration_, repeat_;
  int64_t next_ = 0;  // the window to open next
  bool finished_ = false;
  int64_t opened_at_ = 0;
};

}  // namespace gsys::serving
