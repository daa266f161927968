// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_endpoint.h"

#include <gtest/gtest.h>

#include <map>

namespace gsys::upload {
namespace {

Environment Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(S3EndpointTest, AwsVirtualHosted) {
  auto loc = ResolveS3Location("my-bucket", "eu-west-1", Env({}));
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->base_url, "https://my-bucket.s3.eu-west-1.amazonaws.com");
  EXPECT_EQ(loc->host, "my-bucket.s3.eu-west-1.amazonaws.com");
  EXPECT_EQ(ObjectPath(*loc, "runs/a b$.gsys-rep"), "/runs/a%20b%24.gsys-rep");
}

TEST(S3EndpointTest, DottedBucketGoesPathStyle) {
  auto loc = ResolveS3Location("my.bucket", "us-east-1", Env({}));
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->base_url, "https://s3.us-east-1.amazonaws.com");
  EXPECT_EQ(ObjectPath(*loc, "k"), "/my.bucket/k");
}

TEST(S3EndpointTest, CustomEndpointIsPathStyle) {
  auto loc =
      ResolveS3Location("b1", "us-east-1", Env({{"AWS_ENDPOINT_URL", "http://127.0.0.1:9000/"}}));
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->base_url, "http://127.0.0.1:9000");
  EXPECT_EQ(loc->host, "127.0.0.1:9000");
  EXPECT_EQ(ObjectPath(*loc, "x/y"), "/b1/x/y");
}

TEST(S3EndpointTest, S3SpecificEndpointWinsAndDefaultPortDropped) {
  auto loc = ResolveS3Location("b1", "us-east-1",
                               Env({{"AWS_ENDPOINT_URL", "http://other:1"},
                                    {"AWS_ENDPOINT_URL_S3", "https://minio.example:443/base"}}));
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->host, "minio.example");
  EXPECT_EQ(ObjectPath(*loc, "k"), "/base/b1/k");
}

TEST(S3EndpointTest, BadEndpointNamesVariable) {
  auto loc = ResolveS3Location("b1", "us-east-1", Env({{"AWS_ENDPOINT_URL_S3", "ftp://x"}}));
  ASSERT_FALSE(loc.ok());
  EXPECT_NE(loc.status().message().find("AWS_ENDPOINT_URL_S3"), std::string::npos);
}

}  // namespace
}  // namespace gsys::upload
