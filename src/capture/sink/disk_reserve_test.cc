// SPDX-License-Identifier: Apache-2.0
// The disk reserve's rule and its cache (disk_reserve.h) on a scripted filesystem.
#include "capture/sink/disk_reserve.h"

#include <gtest/gtest.h>

namespace gsys::capture {
namespace {

struct FakeFs {
  uint64_t available = 0;
  uint64_t total = 0;
  bool readable = true;
  int reads = 0;
};

bool Stat(void* context, uint64_t* available, uint64_t* total) {
  auto* fs = static_cast<FakeFs*>(context);
  ++fs->reads;
  *available = fs->available;
  *total = fs->total;
  return fs->readable;
}

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;

TEST(DiskReserveTest, DefaultIsTheSmallerOfFivePercentAndOneGiB) {
  EXPECT_EQ(DiskReserve::DefaultReserve(10 * kGiB), 512 * kMiB);
  EXPECT_EQ(DiskReserve::DefaultReserve(20 * kGiB), kGiB);
  EXPECT_EQ(DiskReserve::DefaultReserve(4 * 1024 * kGiB), kGiB);
  EXPECT_EQ(DiskReserve::DefaultReserve(0), 0u);
}

TEST(DiskReserveTest, StopsBeforeFreeSpaceDropsBelowTheReserve) {
  FakeFs fs{10 * kGiB + 2 * kMiB, 10 * kGiB};  // default reserve 512 MiB: far from it
  DiskReserve r;
  r.Configure(DiskReserve::kDefaultRule, Stat, &fs);
  EXPECT_TRUE(r.Allows(kMiB, 0));
  fs.available = 512 * kMiB + kMiB;  // room for exactly one more MiB
  EXPECT_TRUE(r.Allows(kMiB, DiskReserve::kRefreshNs));
  fs.available -= kMiB;  // that MiB was written
  EXPECT_FALSE(r.Allows(1, 2 * DiskReserve::kRefreshNs));
  EXPECT_EQ(r.reserve(), 512 * kMiB);
}

TEST(DiskReserveTest, ConfiguredBytesReplaceTheRuleAndZeroTurnsItOff) {
  FakeFs fs{100 * kMiB, 10 * kGiB};
  DiskReserve r;
  r.Configure(99 * kMiB, Stat, &fs);
  EXPECT_TRUE(r.Allows(kMiB, 0));
  fs.available -= kMiB;
  EXPECT_FALSE(r.Allows(1, 0));
  DiskReserve off;
  off.Configure(0, Stat, &fs);
  fs.reads = 0;
  EXPECT_TRUE(off.Allows(1000 * kGiB, 0));
  EXPECT_EQ(fs.reads, 0) << "a disabled reserve never reads the filesystem";
}

TEST(DiskReserveTest, ReadsTheFilesystemAtMostEveryPeriodOrEightMiB) {
  FakeFs fs{100 * kGiB, 1000 * kGiB};
  DiskReserve r;
  r.Configure(DiskReserve::kDefaultRule, Stat, &fs);
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(r.Allows(kMiB, i));
  EXPECT_EQ(fs.reads, 1);
  EXPECT_TRUE(r.Allows(kMiB, 10));  // 8 MiB written since the read
  EXPECT_TRUE(r.Allows(kMiB, 11));
  EXPECT_EQ(fs.reads, 2);
  EXPECT_TRUE(r.Allows(1, 11 + DiskReserve::kRefreshNs));
  EXPECT_EQ(fs.reads, 3);
}

TEST(DiskReserveTest, DecidesToStopOnAFreshFigure) {
  FakeFs fs{kGiB + 10 * kMiB, 1000 * kGiB};  // reserve 1 GiB
  DiskReserve r;
  r.Configure(DiskReserve::kDefaultRule, Stat, &fs);
  EXPECT_TRUE(r.Allows(8 * kMiB, 0));
  fs.available = 2 * kGiB;  // someone freed space: the estimate says stop, the filesystem not
  EXPECT_TRUE(r.Allows(4 * kMiB, 1));
  EXPECT_EQ(fs.reads, 2);
}

TEST(DiskReserveTest, AnUnreadableFilesystemDoesNotStopTheCapture) {
  FakeFs fs{0, 0};
  fs.readable = false;
  DiskReserve r;
  r.Configure(DiskReserve::kDefaultRule, Stat, &fs);
  EXPECT_TRUE(r.Allows(kGiB, 0));
}

}  // namespace
}  // namespace gsys::capture
