// SPDX-License-Identifier: Apache-2.0
#include "upload/upload_options_env.h"

#include <gtest/gtest.h>

#include <map>

namespace gsys::upload {
namespace {

Environment FakeEnv(std::map<std::string, std::string> vars) {
  return [vars](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(UploadOptionsEnvTest, ParseByteSize) {
  EXPECT_EQ(ParseByteSize("123"), 123u);
  EXPECT_EQ(ParseByteSize("5M"), 5u << 20);
  EXPECT_EQ(ParseByteSize("5MiB"), 5u << 20);
  EXPECT_EQ(ParseByteSize("64k"), 64u << 10);
  EXPECT_EQ(ParseByteSize("2g"), 2ull << 30);
  EXPECT_EQ(ParseByteSize("7b"), 7u);
  EXPECT_FALSE(ParseByteSize("").has_value());
  EXPECT_FALSE(ParseByteSize("-1").has_value());
  EXPECT_FALSE(ParseByteSize("5X").has_value());
  EXPECT_FALSE(ParseByteSize("99999999999999999999G").has_value());
}

TEST(UploadOptionsEnvTest, DefaultsWithoutVariables) {
  auto o = ApplyEnvironmentOverrides({}, FakeEnv({}));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->multipart_threshold_bytes, 64ull << 20);
  EXPECT_EQ(o->part_size_bytes, 16ull << 20);
  EXPECT_EQ(o->max_attempts, 5);
}

TEST(UploadOptionsEnvTest, Overrides) {
  auto o = ApplyEnvironmentOverrides({}, FakeEnv({{"GSYS_UPLOAD_PART_SIZE", "5M"},
                                                  {"GSYS_UPLOAD_MULTIPART_THRESHOLD", "8M"},
                                                  {"GSYS_UPLOAD_MAX_ATTEMPTS", "2"}}));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->part_size_bytes, 5ull << 20);
  EXPECT_EQ(o->multipart_threshold_bytes, 8ull << 20);
  EXPECT_EQ(o->max_attempts, 2);
}

TEST(UploadOptionsEnvTest, BadValuesNameTheVariable) {
  for (const char* var :
       {"GSYS_UPLOAD_PART_SIZE", "GSYS_UPLOAD_MULTIPART_THRESHOLD", "GSYS_UPLOAD_MAX_ATTEMPTS"}) {
    auto o = ApplyEnvironmentOverrides({}, FakeEnv({{var, "lots"}}));
    ASSERT_FALSE(o.ok());
    EXPECT_NE(o.status().message().find(var), std::string::npos);
  }
}

}  // namespace
}  // namespace gsys::upload
