// SPDX-License-Identifier: Apache-2.0
// The sink end to end inside one process (also the TSan target, ctest label tsan): many
// producer threads append records while the writer thread drains periodically and on wake-ups,
// and another thread forces flushes as a signal handler would; then the final flush. Every
// record must be in the stream file or counted as dropped, per thread and in order.
#include "capture/sink/sink.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "format/stream_reader.h"

namespace gsys::capture {
namespace {

namespace fs = std::filesystem;

struct Result {
  std::map<uint32_t, std::vector<int64_t>> values;  // tid -> payloads in stream order
  uint64_t dropped = 0;
  bool final_chunk = false;
};

Result ReadSession(const std::string& dir) {
  Result out;
  for (const auto& e : fs::directory_iterator(dir)) {
    auto file = format::StreamFile::Open(e.path().string());
    EXPECT_TRUE(file.ok());
    if (!file.ok()) continue;
    out.final_chunk = out.final_chunk || file->stats().final_chunk;
    EXPECT_EQ(file->stats().bad_chunks, 0u);
    for (const auto& chunk : file->chunks()) {
      format::RecordCursor cur(chunk.payload, chunk.header.payload_size);
      format::RecordView r;
      while (cur.Next(&r)) {
        if (r.kind == format::RecordKind::kNvtxPop) {
          format::NvtxPopBody b;
          EXPECT_TRUE(r.Body(&b));
          out.values[r.tid].push_back(b.timestamp);
        } else if (r.kind == format::RecordKind::kCounter) {
          format::CounterBody b;
          EXPECT_TRUE(r.Body(&b));
          if (b.id == static_cast<uint32_t>(format::CounterId::kDroppedRecords))
            out.dropped = b.value;
        }
      }
      EXPECT_FALSE(cur.malformed());
    }
  }
  return out;
}

TEST(SinkTest, ConcurrentProducersPeriodicAndForcedFlushesLoseNothingUncounted) {
  std::string dir =
      fs::temp_directory_path().string() + "/gsys_sink_test_" + std::to_string(getpid());
  fs::create_directories(dir);
  static CaptureConfig config;  // the sink keeps a pointer
  std::snprintf(config.session_dir, sizeof(config.session_dir), "%s", dir.c_str());
  config.enabled = true;
  config.buffer_bytes = 16 * 1024;  // small: forces wake-ups and some drops
  config.flush_interval_ms = 5;
  ChooseTickClock(false);
  ASSERT_TRUE(SinkInit(config, 1));
  SetRecordingFlag(true);

  constexpr int kThreads = 8;
  constexpr int64_t kPerThread = 40000;
  std::atomic<bool> done{false};
  std::thread flusher([&] {
    while (!done.load()) {
      SinkFlush(false);  // as the exec, fork and signal paths do, concurrently with the writer
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
  });
  std::vector<std::thread> producers;
  std::atomic<uint64_t> refused{0};
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&] {
      for (int64_t i = 0; i < kPerThread; ++i) {
        format::NvtxPopBody body{};
        body.timestamp = i;
        if (!EmitRecord(format::RecordKind::kNvtxPop, body)) refused.fetch_add(1);
        if (i % 512 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    });
  }
  for (auto& p : producers) p.join();
  done = true;
  flusher.join();
  SinkFlush(true);

  Result r = ReadSession(dir);
  EXPECT_TRUE(r.final_chunk);
  uint64_t present = 0;
  for (const auto& [tid, values] : r.values) {
    present += values.size();
    for (size_t i = 1; i < values.size(); ++i) {
      ASSERT_LT(values[i - 1], values[i]) << "records of thread " << tid << " out of order";
    }
  }
  std::printf("present %llu dropped %llu\n", static_cast<unsigned long long>(present),
              static_cast<unsigned long long>(r.dropped));
  EXPECT_GT(present, 0u);
  EXPECT_EQ(r.values.size(), static_cast<size_t>(kThreads));
  EXPECT_EQ(r.dropped, refused.load());
  EXPECT_EQ(present + r.dropped, static_cast<uint64_t>(kThreads) * kPerThread);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys::capture
