// SPDX-License-Identifier: Apache-2.0
#include "export/perfetto/proto_writer.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gsys::export_
