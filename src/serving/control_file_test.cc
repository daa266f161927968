// SPDX-License-Identifier: Apache-2.0
#include "serving/control_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

namespace gsys::serving {
namespace {

// Maps DIR/control as a second party would (the injected library does the same with MAP_FIXED).
format::ControlPage* MapAsProcess(const std::string& dir) {
  int fd = open((dir + "/control").c_str(), O_RDWR);
  if (fd < 0) return nullptr;
  void* p = mmap(nullptr, format::kControlPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return p == MAP_FAILED ? nullptr : static_cast<format::ControlPage*>(p);
}

class ControlFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/gsys-control-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(ControlFileTest, PageIsSharedAndVersioned) {
  auto c = ControlFile::Create(dir_, false, true);
  ASSERT_TRUE(c.ok()) << c.status().message();
  format::ControlPage* other = MapAsProcess(dir_);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->magic, format::kControlMagic);
  EXPECT_EQ(other->version, format::kControlVersion);
  EXPECT_EQ(other->trigger.load(), format::kTriggerArmed);
  EXPECT_EQ(other->recording.load(), 0u);
  c->SetRecording(true);
  EXPECT_EQ(other->recording.load(), 1u);
  other->recording.store(0);
  EXPECT_FALSE(c->recording());
  munmap(other, format::kControlPageBytes);
}

TEST_F(ControlFileTest, RangeWindowsAreReportedOnceInOrder) {
  auto c = ControlFile::Create(dir_, false, false);
  ASSERT_TRUE(c.ok());
  format::ControlPage* other = MapAsProcess(dir_);
  ASSERT_NE(other, nullptr);
  auto open_close = [&](int64_t start, int64_t end) {
    uint64_t i = other->windows_opened.load();
    other->ring[i % format::kControlRingSize].start_ns.store(start);
    other->ring[i % format::kControlRingSize].end_ns.store(end);
    other->windows_opened.store(i + 1);
    if (end != 0) other->windows_closed.store(i + 1);
  };
  std::vector<std::pair<int64_t, int64_t>> seen;
  auto collect = [&](int64_t s, int64_t e) { seen.emplace_back(s, e); };
  open_close(10, 20);
  open_close(30, 40);
  c->PollRangeWindows(collect);
  c->PollRangeWindows(collect);
  EXPECT_EQ(seen, (std::vector<std::pair<int64_t, int64_t>>{{10, 20}, {30, 40}}));
  open_close(50, 0);  // still open: only reported at the end, ending "now"
  c->PollRangeWindows(collect);
  EXPECT_EQ(seen.size(), 2u);
  c->PollRangeWindows(collect, true, 99);
  EXPECT_EQ(seen.back(), (std::pair<int64_t, int64_t>{50, 99}));
  munmap(other, format::kControlPageBytes);
}

TEST_F(ControlFileTest, SeenRangesAreWrittenSlotsDeduplicated) {
  auto c = ControlFile::Create(dir_, false, true);
  ASSERT_TRUE(c.ok());
  format::ControlPage* other = MapAsProcess(dir_);
  ASSERT_NE(other, nullptr);
  auto put = [&](uint32_t slot, const std::string& text, bool registered, uint64_t hash) {
    format::ControlSeenName& s = other->seen[slot];
    std::memcpy(s.text, text.data(), text.size());
    s.len = static_cast<uint8_t>(text.size());
    s.registered = registered ? 1 : 0;
    s.hash.store(hash);
  };
  bool more = true;
  EXPECT_TRUE(c->SeenRanges(&more).empty());
  EXPECT_FALSE(more);
  put(0, "step@Train", false, 7);
  put(1, "init", true, 8);
  put(3, "step@Train", false, 9);  // a second process added the same name
  other->seen_claimed.store(4);    // slot 2 claimed, its text not written yet: skipped
  auto seen = c->SeenRanges(&more);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].name, "step@Train");
  EXPECT_FALSE(seen[0].registered);
  EXPECT_EQ(seen[1].name, "init");
  EXPECT_TRUE(seen[1].registered);
  EXPECT_FALSE(more);
  other->seen_claimed.store(format::kControlSeenSlots + 3);  // the tree saw more than it kept
  c->SeenRanges(&more);
  EXPECT_TRUE(more);
  EXPECT_TRUE(c->trigger_armed());
  other->trigger.store(format::kTriggerActive);  // a range holds a window open
  EXPECT_FALSE(c->DisarmTrigger());
  EXPECT_EQ(other->trigger.load(), format::kTriggerActive);
  other->trigger.store(format::kTriggerDone);
  EXPECT_TRUE(c->DisarmTrigger());
  EXPECT_EQ(other->trigger.load(), format::kTriggerNone);
  EXPECT_FALSE(c->trigger_armed());
  c->ArmTrigger();
  EXPECT_EQ(other->trigger.load(), format::kTriggerArmed);
  munmap(other, format::kControlPageBytes);
}

TEST_F(ControlFileTest, MissingFolderIsAnError) {
  auto c = ControlFile::Create(dir_ + "/nope", false, false);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("nope/control"), std::string::npos);
}

}  // namespace
}  // namespace gsys::serving
