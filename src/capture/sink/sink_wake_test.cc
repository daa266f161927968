// SPDX-License-Identifier: Apache-2.0
// The writer serves "buffer half full" wake-ups from the start and never misses one: with a
// periodic drain far away (60 s), a thread that fills a small buffer every ~1.5 ms must lose
// nothing (issue 20 item 2). Before, the writer slept its first 20 ms (tick calibration)
// without draining, and read the wake word after a drain, so a wake sent during the drain was
// lost until the next period. Its own binary: the sink is process-wide, SinkInit runs once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "capture/sink/sink.h"
#include "format/stream_reader.h"

namespace gsys::capture {
namespace {

namespace fs = std::filesystem;

TEST(SinkWakeTest, WakeUpsAloneKeepAPacedProducerLossless) {
  std::string dir = fs::temp_directory_path().string() + "/gsys_sink_wake_test_" +
                    std::to_string(getpid());
  fs::create_directories(dir);
  static CaptureConfig config;  // the sink keeps a pointer
  std::snprintf(config.session_dir, sizeof(config.session_dir), "%s", dir.c_str());
  config.enabled = true;
  config.buffer_bytes = 64 * 1024;
  config.flush_interval_ms = 60000;  // only wake-ups drain during the test
  ChooseTickClock(false);
  ASSERT_TRUE(SinkInit(config, 1));
  SetRecordingFlag(true);

  // 24-byte records, 1 000 per ~1 ms burst (~24 MB/s): half the ring every ~1.4 ms, the whole
  // ring in under 3 ms, for 600 ms.
  constexpr int kBursts = 600;
  constexpr int kPerBurst = 1000;
  int64_t refused = 0;
  for (int burst = 0; burst < kBursts; ++burst) {
    for (int i = 0; i < kPerBurst; ++i) {
      format::NvtxPopBody body{};
      body.timestamp = static_cast<int64_t>(burst) * kPerBurst + i;
      if (!EmitRecord(format::RecordKind::kNvtxPop, body)) ++refused;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  SinkFlush(true);

  int64_t kept = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    auto file = format::StreamFile::Open(e.path().string());
    ASSERT_TRUE(file.ok());
    for (const auto& chunk : file->chunks()) {
      format::RecordCursor cur(chunk.payload, chunk.header.payload_size);
      format::RecordView r;
      while (cur.Next(&r)) kept += r.kind == format::RecordKind::kNvtxPop;
    }
  }
  // A missed wake-up loses everything after it (no drain for 60 s); a writer that is woken
  // but not scheduled in time on a loaded machine (a 2-core CI runner) drops a few ms' worth.
  // So: every record is kept or counted, and at most a quarter is refused.
  EXPECT_EQ(kept + refused, int64_t{kBursts} * kPerBurst);
  EXPECT_LT(refused, int64_t{kBursts} * kPerBurst / 4) << "refused " << refused;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys::capture
