// SPDX-License-Identifier: Apache-2.0
#include "upload/destination.h"

#include <gtest/gtest.h>

namespace gsys::upload {
namespace {

TEST(DestinationTest, S3WithPrefix) {
  auto d = ParseDestination("s3://my-bucket/reports/run1/");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->kind, DestinationKind::kS3);
  EXPECT_EQ(d->bucket, "my-bucket");
  EXPECT_EQ(d->prefix, "reports/run1/");
}

TEST(DestinationTest, S3PrefixWithoutSlashIsADirectory) {
  auto d = ParseDestination("s3://my-bucket/reports");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->prefix, "reports/");
}

TEST(DestinationTest, S3BucketOnly) {
  for (const char* dest : {"s3://my-bucket", "s3://my-bucket/"}) {
    auto d = ParseDestination(dest);
    ASSERT_TRUE(d.ok()) << dest;
    EXPECT_EQ(d->bucket, "my-bucket");
    EXPECT_EQ(d->prefix, "");
  }
}

TEST(DestinationTest, FileDirectory) {
  auto d = ParseDestination("file:///tmp/out");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->kind, DestinationKind::kFile);
  EXPECT_EQ(d->prefix, "/tmp/out/");
}

TEST(DestinationTest, Rejects) {
  for (const char* dest : {"s3://", "s3:///x", "s3://a/", "s3://bad bucket/x", "file://rel/dir",
                           "http://x/y", "/tmp/dir", ""}) {
    auto d = ParseDestination(dest);
    ASSERT_FALSE(d.ok()) << dest;
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(d.status().message().rfind("upload: bad destination", 0), 0u) << d.status().message();
  }
}

TEST(DestinationTest, BaseName) {
  EXPECT_EQ(BaseName("a/b/r.gsys-rep"), "r.gsys-rep");
  EXPECT_EQ(BaseName("r.gsys-rep"), "r.gsys-rep");
  EXPECT_EQ(BaseName("dir/"), "");
}

}  // namespace
}  // namespace gsys::upload
