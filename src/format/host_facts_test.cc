// SPDX-License-Identifier: Apache-2.0
#include "format/host_facts.h"

#include <gtest/gtest.h>

namespace gsys::format {
namespace {

TEST(HostFactsTest, RecordedFactsComeBackAndWinOverThisMachine) {
  SessionMeta meta;
  RecordHostFacts(&meta);
  HostFacts here = ThisHostFacts();
  HostFacts read = HostFactsOf(meta);
  EXPECT_EQ(read.cpu_cores, here.cpu_cores);
  EXPECT_EQ(read.kernel_release, here.kernel_release);
  EXPECT_EQ(read.utc_offset_s, here.utc_offset_s);
  // Another machine's session: its facts, not this one's.
  meta["host_cpu_cores"] = "4096";
  meta["host_cpu_architecture"] = "aarch64";
  meta["host_os_description"] = "Elsewhere OS 1";
  meta["host_kernel_release"] = "9.9.9-other";
  meta["host_utc_offset_s"] = "-25200";
  read = HostFactsOf(meta);
  EXPECT_EQ(read.cpu_cores, "4096");
  EXPECT_EQ(read.cpu_architecture, "aarch64");
  EXPECT_EQ(read.os_description, "Elsewhere OS 1");
  EXPECT_EQ(read.kernel_release, "9.9.9-other");
  EXPECT_EQ(read.utc_offset_s, -25200);
}

TEST(HostFactsTest, AnOlderSessionFallsBackToThisMachineWithoutATimeZone) {
  HostFacts read = HostFactsOf(SessionMeta{{"host", "h"}});
  HostFacts here = ThisHostFacts();
  EXPECT_EQ(read.cpu_cores, here.cpu_cores);
  EXPECT_EQ(read.cpu_architecture, here.cpu_architecture);
  EXPECT_EQ(read.os_description, here.os_description);
  EXPECT_FALSE(read.utc_offset_s.has_value());
}

TEST(HostFactsTest, AnOffsetThatIsNoTimeZoneIsIgnored) {
  for (const char* bad : {"86400", "-90000", "5h", "", "99999999999999999999"}) {
    EXPECT_FALSE(HostFactsOf(SessionMeta{{"host_utc_offset_s", bad}}).utc_offset_s.has_value())
        << bad;
  }
  EXPECT_EQ(HostFactsOf(SessionMeta{{"host_utc_offset_s", "19800"}}).utc_offset_s, 19800);
}

}  // namespace
}  // namespace gsys::format
