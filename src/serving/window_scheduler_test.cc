// SPDX-License-Identifier: Apache-2.0
#include "serving/window_scheduler.h"

#include <gtest/gtest.h>

namespace gsys::serving {
namespace {

using A = WindowScheduler::Action;

TEST(WindowScheduler, OneWindow) {
  WindowScheduler s(1000, 100, 50, 0);
  EXPECT_EQ(s.Tick(1099, false), A::kNone);
  EXPECT_EQ(s.Tick(1100, false), A::kOpen);
  EXPECT_EQ(s.Tick(1149, true), A::kNone);
  EXPECT_EQ(s.Tick(1150, true), A::kClose);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.Tick(5000, false), A::kNone);
}

TEST(WindowScheduler, RepeatOpensEveryPeriod) {
  WindowScheduler s(0, 10, 5, 20);
  int opens = 0, closes = 0;
  bool open = false;
  for (int64_t t = 0; t <= 75; ++t) {
    A a = s.Tick(t, open);
    if (a == A::kOpen) {
      ++opens;
      open = true;
      EXPECT_EQ(t % 20, 10) << t;
    } else if (a == A::kClose) {
      ++closes;
      open = false;
      EXPECT_EQ(t % 20, 15) << t;
    }
  }
  EXPECT_EQ(opens, 4);   // 10, 30, 50, 70
  EXPECT_EQ(closes, 4);  // 15, 35, 55, 75
  EXPECT_FALSE(s.finished());
}

TEST(WindowScheduler, ALateOpenStillGetsTheFullDuration) {
  WindowScheduler s(0, 100, 50, 0);
  EXPECT_EQ(s.Tick(130, false), A::kOpen);
  EXPECT_EQ(s.Tick(179, true), A::kNone);
  EXPECT_EQ(s.Tick(180, true), A::kClose);
}

TEST(WindowScheduler, MissedWindowsAreSkipped) {
  WindowScheduler s(0, 10, 5, 20);
  EXPECT_EQ(s.Tick(57, false), A::kNone);  // windows 0..2 passed unseen
  EXPECT_EQ(s.next_window(), 3);
  EXPECT_EQ(s.Tick(70, false), A::kOpen);
}

}  // namespace
}  // namespace gsys::serving
