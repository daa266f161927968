// SPDX-License-Identifier: Apache-2.0
#include "common/file_mode.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

namespace gsys {
namespace {

TEST(FileModeTest, FollowsTheUmaskWithoutChangingIt) {
  mode_t old = ::umask(077);
  EXPECT_EQ(CurrentUmask(), 077u);
  EXPECT_EQ(ModeUnderUmask(0666), 0600u);
  EXPECT_EQ(ModeUnderUmask(0777), 0700u);
  ::umask(022);
  EXPECT_EQ(ModeUnderUmask(0666), 0644u);
  EXPECT_EQ(ModeUnderUmask(0777), 0755u);
  ::umask(002);
  EXPECT_EQ(ModeUnderUmask(0666), 0664u);
  EXPECT_EQ(::umask(old), 002u);  // reading it left it as it was
}

}  // namespace
}  // namespace gsys
