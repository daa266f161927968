// SPDX-License-Identifier: Apache-2.0
#include "format/stream_reader.h"

#include <gtest/gtest.h>

#include "format/crc32c.h"
#include "format/stream_builder.h"

namespace gsys::format {
namespace {

NvtxEventBody Push(int64_t ts) {
  NvtxEventBody b{};
  b.timestamp = ts;
  b.message_type = static_cast<uint8_t>(NvtxMessage::kText);
  b.text_len = 5;
  return b;
}

std::vector<uint8_t> ThreeChunks() {
  StreamBuilder sb(42, 7);
  for (int c = 0; c < 3; ++c) {
    sb.Add(RecordKind::kNvtxPush, 100 + c, Push(c), "hello");
    sb.Add(RecordKind::kNvtxPop, 100 + c, NvtxPopBody{c + 1, 0, 0});
    sb.FlushChunk(c == 2 ? uint32_t{kChunkFinal} : 0u);
  }
  return sb.bytes();
}

TEST(Crc32cTest, KnownVector) {
  // RFC 3720 test vector: CRC-32C of "123456789" is 0xE3069283.
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32c("6789", 4, Crc32c("12345", 5)), 0xE3069283u);
}

TEST(StreamReaderTest, RoundTripsRecords) {
  auto bytes = ThreeChunks();
  StreamFile f = StreamFile::FromBytes(bytes.data(), bytes.size());
  ASSERT_EQ(f.chunks().size(), 3u);
  EXPECT_EQ(f.pid(), 42u);
  EXPECT_TRUE(f.stats().final_chunk);
  EXPECT_EQ(f.stats().skipped_bytes, 0u);
  RecordCursor cur(f.chunks()[1].payload, f.chunks()[1].header.payload_size);
  RecordView r;
  ASSERT_TRUE(cur.Next(&r));
  EXPECT_EQ(r.kind, RecordKind::kNvtxPush);
  EXPECT_EQ(r.tid, 101u);
  NvtxEventBody body;
  ASSERT_TRUE(r.Body(&body));
  std::string_view text;
  ASSERT_TRUE(r.Text(sizeof(body), 0, body.text_len, &text));
  EXPECT_EQ(text, "hello");
  ASSERT_TRUE(cur.Next(&r));
  EXPECT_EQ(r.kind, RecordKind::kNvtxPop);
  EXPECT_FALSE(cur.Next(&r));
  EXPECT_FALSE(cur.malformed());
}

TEST(StreamReaderTest, TruncatedTailKeepsCompleteChunks) {
  auto bytes = ThreeChunks();
  for (size_t cut = 0; cut < bytes.size(); cut += 8) {
    StreamFile f = StreamFile::FromBytes(bytes.data(), cut);
    size_t expected = 0, pos = 0;
    while (true) {
      ChunkHeader h;
      if (pos + sizeof(h) > cut) break;
      std::memcpy(&h, bytes.data() + pos, sizeof(h));
      if (pos + sizeof(h) + h.payload_size > cut) break;
      ++expected;
      pos += sizeof(h) + h.payload_size;
    }
    EXPECT_EQ(f.chunks().size(), expected) << "cut at " << cut;
  }
}

TEST(StreamReaderTest, CorruptPayloadSkipsOnlyThatChunk) {
  auto bytes = ThreeChunks();
  bytes[sizeof(ChunkHeader) + 20] ^= 0xFF;  // inside chunk 0's payload
  StreamFile f = StreamFile::FromBytes(bytes.data(), bytes.size());
  EXPECT_EQ(f.chunks().size(), 2u);
  EXPECT_EQ(f.stats().bad_chunks, 1u);
  EXPECT_EQ(f.chunks()[0].header.seq, 1u);
}

TEST(StreamReaderTest, CorruptHeaderResyncsOnNextMagic) {
  auto bytes = ThreeChunks();
  bytes[4] ^= 0xFF;  // chunk 0 header
  StreamFile f = StreamFile::FromBytes(bytes.data(), bytes.size());
  EXPECT_EQ(f.chunks().size(), 2u);
  EXPECT_GT(f.stats().skipped_bytes, 0u);
}

TEST(StreamReaderTest, NewerVersionIsSkippedAndCounted) {
  StreamBuilder sb(1, 1);
  sb.Add(RecordKind::kNvtxPop, 1, NvtxPopBody{1, 0, 0});
  sb.FlushChunk();
  auto bytes = sb.bytes();
  ChunkHeader h;
  std::memcpy(&h, bytes.data(), sizeof(h));
  h.format_version = kFormatVersion + 1;
  h.header_crc = Crc32c(&h, offsetof(ChunkHeader, header_crc));
  std::memcpy(bytes.data(), &h, sizeof(h));
  StreamFile f = StreamFile::FromBytes(bytes.data(), bytes.size());
  EXPECT_EQ(f.chunks().size(), 0u);
  EXPECT_EQ(f.stats().unsupported_chunks, 1u);
}

// Found by fuzz/stream_decode_fuzzer: a newer-version header with header_size 0 looped forever.
TEST(StreamReaderTest, UnsupportedHeaderWithZeroSizeDoesNotLoop) {
  std::vector<uint8_t> bytes(64, 0);
  ChunkHeader h{};
  h.magic = kChunkMagic;
  h.format_version = kFormatVersion + 1;
  h.header_size = 0;
  h.payload_size = 0;
  h.header_crc = Crc32c(&h, offsetof(ChunkHeader, header_crc));
  std::memcpy(bytes.data(), &h, sizeof(h));
  StreamFile f = StreamFile::FromBytes(bytes.data(), bytes.size());
  EXPECT_EQ(f.chunks().size(), 0u);
  EXPECT_EQ(f.stats().unsupported_chunks, 0u);
  EXPECT_GT(f.stats().skipped_bytes, 0u);
}

TEST(StreamReaderTest, MalformedRecordStopsCursor) {
  uint8_t payload[16] = {};
  RecordHeader h{static_cast<uint16_t>(RecordKind::kNvtxPop), 64, 1};  // size past the end
  std::memcpy(payload, &h, sizeof(h));
  RecordCursor cur(payload, sizeof(payload));
  RecordView r;
  EXPECT_FALSE(cur.Next(&r));
  EXPECT_TRUE(cur.malformed());
}

TEST(StreamReaderTest, SequenceGapsAreCounted) {
  StreamBuilder sb(1, 1);
  for (int i = 0; i < 3; ++i) {
    sb.Add(RecordKind::kNvtxPop, 1, NvtxPopBody{i, 0, 0});
    sb.FlushChunk();
  }
  auto bytes = sb.bytes();
  size_t chunk = sizeof(ChunkHeader) + RecordSize(sizeof(NvtxPopBody), 0);
  bytes.erase(bytes.begin() + chunk, bytes.begin() + 2 * chunk);  // drop seq 1
  StreamFile f = StreamFile::FromBytes(bytes.data(), bytes.size());
  EXPECT_EQ(f.chunks().size(), 2u);
  EXPECT_EQ(f.stats().seq_gaps, 1u);
}

TEST(StreamReaderTest, MissingFileIsNotFound) {
  auto r = StreamFile::Open("/nonexistent/x.gsysraw");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace gsys::format
