// SPDX-License-Identifier: Apache-2.0
#include "capture/sink/thread_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "format/stream_reader.h"

namespace gsys::capture {
namespace {

using format::RecordHeader;
using format::RecordKind;

bool Put(ThreadBuffer* b, uint64_t value, uint32_t size = 16) {
  uint8_t* p = b->Reserve(size);
  if (p == nullptr) return false;
  RecordHeader h{static_cast<uint16_t>(RecordKind::kNvtxPop), static_cast<uint16_t>(size), 1};
  std::memcpy(p, &h, sizeof(h));
  std::memcpy(p + 8, &value, 8);
  b->Commit(size);
  return true;
}

std::vector<uint64_t> DrainValues(ThreadBuffer* b) {
  std::vector<uint8_t> out(1 << 16);
  uint32_t records = 0;
  size_t n = b->Drain(out.data(), out.size(), &records);
  std::vector<uint64_t> values;
  format::RecordCursor cur(out.data(), n);
  format::RecordView r;
  uint32_t gaps = 0;
  while (cur.Next(&r)) {
    if (r.kind == RecordKind::kThreadGap) {  // marks where records were dropped
      ++gaps;
      continue;
    }
    uint64_t v;
    std::memcpy(&v, r.data + 8, 8);
    values.push_back(v);
  }
  EXPECT_FALSE(cur.malformed());
  EXPECT_EQ(values.size() + gaps, records);
  return values;
}

TEST(ThreadBufferTest, FifoAcrossWrapWithPadding) {
  std::vector<uint8_t> mem(4096);
  ThreadBuffer b(mem.data(), mem.size());
  uint64_t next = 0, expect = 0;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 37; ++i) ASSERT_TRUE(Put(&b, next++, i % 3 == 0 ? 40 : 16));
    for (uint64_t v : DrainValues(&b)) EXPECT_EQ(v, expect++);
  }
  EXPECT_EQ(expect, next);
  EXPECT_EQ(b.dropped(), 0u);
}

// Issue 17, item 3: the importer must learn where records were lost.
TEST(ThreadBufferTest, FirstRecordAfterADropIsPrecededByAGap) {
  std::vector<uint8_t> mem(4096);
  ThreadBuffer b(mem.data(), mem.size());
  b.tid.store(42);
  int stored = 0;
  while (Put(&b, static_cast<uint64_t>(stored))) ++stored;
  EXPECT_EQ(b.dropped(), 1u);
  std::vector<uint8_t> out(1 << 16);
  uint32_t records = 0;
  b.Drain(out.data(), out.size(), &records);  // room again
  ASSERT_TRUE(Put(&b, 7));
  records = 0;
  size_t n = b.Drain(out.data(), out.size(), &records);
  format::RecordCursor cur(out.data(), n);
  format::RecordView r;
  ASSERT_TRUE(cur.Next(&r));
  EXPECT_EQ(r.kind, RecordKind::kThreadGap);
  EXPECT_EQ(r.tid, 42u);
  ASSERT_TRUE(cur.Next(&r));
  EXPECT_EQ(r.kind, RecordKind::kNvtxPop);
  EXPECT_FALSE(cur.Next(&r));
  EXPECT_EQ(b.dropped(), 1u);  // the gap itself is not a dropped record
  ASSERT_TRUE(Put(&b, 8));     // one gap per loss
  records = 0;
  n = b.Drain(out.data(), out.size(), &records);
  EXPECT_EQ(records, 1u);
}

TEST(ThreadBufferTest, FullBufferDropsAndCounts) {
  std::vector<uint8_t> mem(4096);
  ThreadBuffer b(mem.data(), mem.size());
  int stored = 0;
  for (int i = 0; i < 1000; ++i) stored += Put(&b, i) ? 1 : 0;
  EXPECT_EQ(stored, 4096 / 16);
  EXPECT_EQ(b.dropped(), 1000u - stored);
  EXPECT_EQ(DrainValues(&b).size(), static_cast<size_t>(stored));
  EXPECT_TRUE(Put(&b, 1));
}

TEST(ThreadBufferTest, ConcurrentProducerConsumerLosesNothingUnlessCounted) {
  std::vector<uint8_t> mem(1 << 14);
  ThreadBuffer b(mem.data(), mem.size());
  constexpr uint64_t kCount = 200000;
  std::atomic<bool> done{false};
  std::thread producer([&] {
    for (uint64_t i = 0; i < kCount; ++i) Put(&b, i, i % 5 == 0 ? 48 : 16);
    done = true;
  });
  uint64_t received = 0, last = 0;
  bool first = true;
  while (!done || !b.Empty()) {
    for (uint64_t v : DrainValues(&b)) {
      if (!first) {
        EXPECT_GT(v, last);
      }
      first = false;
      last = v;
      ++received;
    }
  }
  producer.join();
  EXPECT_EQ(received + b.dropped(), kCount);
}

}  // namespace
}  // namespace gsys::capture
