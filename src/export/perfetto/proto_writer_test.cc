// SPDX-License-Identifier: Apache-2.0
#include "export/perfetto/proto_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gsys::export_ {
namespace {

TEST(ProtoBufferTest, VarintsAndStrings) {
  std::string out;
  ProtoBuffer p(out);
  p.Varint(1, 300);
  p.Bytes(2, "hi");
  EXPECT_EQ(out, std::string("\x08\xac\x02\x12\x02hi", 7));
}

TEST(ProtoBufferTest, NestedLengthIsPatchedAsFourByteVarint) {
  std::string out;
  ProtoBuffer p(out);
  size_t token = p.BeginNested(11);
  p.Varint(1, 5);
  p.EndNested(token);
  // tag 11/LEN = 0x5a, length 2 as a redundant 4-byte varint, then the field.
  EXPECT_EQ(out, std::string("\x5a\x82\x80\x80\x00\x08\x05", 7));
}

TEST(ProtoBufferTest, Fixed64IsLittleEndian) {
  std::string out;
  ProtoBuffer p(out);
  p.Fixed64(47, 0x0102030405060708ULL);
  EXPECT_EQ(out.size(), 2u + 8u);
  EXPECT_EQ(static_cast<unsigned char>(out[2]), 0x08);
  EXPECT_EQ(static_cast<unsigned char>(out[9]), 0x01);
}

TEST(PerfettoTraceWriterTest, SliceEndWritesTheBytesOfAnEndEvent) {
  namespace fs = std::filesystem;
  std::string path =
      (fs::temp_directory_path() / ("gsys_slice_end_" + std::to_string(::getpid()) + ".pftrace"))
          .string();
  const uint64_t cases[][2] = {{0, 1}, {127, 128}, {1234567, 300}, {UINT64_MAX, uint64_t{1} << 40}};
  {
    Result<OutputFile> out = OutputFile::Create(path, /*replace=*/true);
    ASSERT_TRUE(out.ok());
    PerfettoTraceWriter writer(*out, 3);
    for (const auto& c : cases) {
      TrackEventFields fields;
      fields.type = TrackEventFields::Type::kSliceEnd;
      fields.timestamp = c[0];
      fields.track_uuid = c[1];
      ASSERT_TRUE(writer.Event(fields).ok());
    }
    for (const auto& c : cases) ASSERT_TRUE(writer.SliceEnd(c[0], c[1]).ok());
    ASSERT_TRUE(out->Commit().ok());
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  std::string all = bytes.str();
  ASSERT_EQ(all.size() % 2, 0u);
  EXPECT_EQ(all.substr(0, all.size() / 2), all.substr(all.size() / 2));
  fs::remove(path);
}

}  // namespace
}  // namespace gsys::export_
