// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_client.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/strings.h"
#include "upload/crypto.h"
#include "upload/fake_http_client.h"

namespace gsys::upload {
namespace {

namespace fs = std::filesystem;

class S3ClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "gsys-s3client-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    data_.resize(2500);
    for (size_t i = 0; i < data_.size(); ++i) data_[i] = static_cast<char>(i * 7 % 256);
    file_ = dir_ + "/r.gsys-rep";
    std::ofstream(file_, std::ios::binary) << data_;
  }
  void TearDown() override { fs::remove_all(dir_); }

  S3Client Client(FakeHttpClient* http, UploadOptions o = {}) {
    S3Location loc{"http://127.0.0.1:9", "127.0.0.1:9", "/bkt", "us-east-1"};
    AwsCredentials creds{"AKIDTEST", "SECRET-VALUE-123", "TOKEN-VALUE-456", "test", 0};
    o.log = [this](const std::string& l) { log_ += l + "\n"; };
    S3Client c(http, loc, creds, o, "s3://bkt/runs/r.gsys-rep");
    c.SetClock([] { return int64_t{1440938160}; });
    c.SetSleep([this](int ms) { slept_ms_ += ms; });
    return c;
  }

  std::string dir_, file_, data_, log_;
  int slept_ms_ = 0;
};

TEST_F(S3ClientTest, SinglePutIsSignedWithRealPayloadHash) {
  FakeHttpClient http([](const HttpRequest&) { return Respond(200); });
  ASSERT_TRUE(Client(&http).Upload("runs/r.gsys-rep", file_, data_.size()).ok());
  ASSERT_EQ(http.requests.size(), 1u);
  const HttpRequest& r = http.requests[0];
  EXPECT_EQ(r.method, "PUT");
  EXPECT_EQ(r.url, "http://127.0.0.1:9/bkt/runs/r.gsys-rep");
  EXPECT_EQ(r.body_file, file_);
  EXPECT_EQ(r.body_length, data_.size());
  EXPECT_EQ(HeaderOf(r, "x-amz-content-sha256"), Sha256Hex(data_));
  EXPECT_EQ(HeaderOf(r, "content-md5"), Base64Encode(Md5(data_)));
  EXPECT_EQ(HeaderOf(r, "x-amz-security-token"), "TOKEN-VALUE-456");
  EXPECT_EQ(HeaderOf(r, "x-amz-date"), "20150830T123600Z");
  EXPECT_TRUE(StartsWith(
      HeaderOf(r, "Authorization"),
      "AWS4-HMAC-SHA256 Credential=AKIDTEST/20150830/us-east-1/s3/aws4_request, "
      "SignedHeaders=content-md5;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, "))
      << HeaderOf(r, "Authorization");
}

TEST_F(S3ClientTest, MultipartSendsPartsAndCompletes) {
  FakeHttpClient http([](const HttpRequest& r) {
    if (r.method == "POST" && r.url.find("?uploads=") != std::string::npos) {
      return Respond(
          200,
          "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>");
    }
    if (r.method == "PUT") {
      std::string n = r.url.substr(r.url.find("partNumber=") + 11, 1);
      return Respond(200, "", {{"etag", "\"etag-" + n + "\""}});
    }
    return Respond(200, "<CompleteMultipartUploadResult/>");
  });
  UploadOptions o;
  o.multipart_threshold_bytes = 1000;
  o.part_size_bytes = 1000;
  ASSERT_TRUE(Client(&http, o).Upload("runs/r.gsys-rep", file_, data_.size()).ok());
  ASSERT_EQ(http.requests.size(), 5u);  // create, 3 parts, complete
  EXPECT_EQ(http.requests[1].url,
            "http://127.0.0.1:9/bkt/runs/r.gsys-rep?partNumber=1&uploadId=U1");
  EXPECT_EQ(http.requests[3].body_offset, 2000u);
  EXPECT_EQ(http.requests[3].body_length, 500u);
  EXPECT_EQ(HeaderOf(http.requests[3], "x-amz-content-sha256"), Sha256Hex(data_.substr(2000)));
  const HttpRequest& done = http.requests[4];
  EXPECT_EQ(done.url, "http://127.0.0.1:9/bkt/runs/r.gsys-rep?uploadId=U1");
  EXPECT_NE(
      done.body.find("<Part><PartNumber>3</PartNumber><ETag>&quot;etag-3&quot;</ETag></Part>"),
      std::string::npos);
  EXPECT_EQ(HeaderOf(done, "x-amz-content-sha256"), Sha256Hex(done.body));
}

TEST_F(S3ClientTest, FailedPartAbortsUpload) {
  FakeHttpClient http([](const HttpRequest& r) {
    if (r.method == "POST")
      return Respond(
          200,
          "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>");
    if (r.method == "DELETE") return Respond(204);
    return Respond(403, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>");
  });
  UploadOptions o;
  o.multipart_threshold_bytes = 1000;
  o.part_size_bytes = 1000;
  Status s = Client(&http, o).Upload("runs/r.gsys-rep", file_, data_.size());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.message(),
            "upload: s3://bkt/runs/r.gsys-rep: UploadPart 1/3 failed: HTTP 403 AccessDenied: "
            "Access Denied (1 attempt; access key ...TEST from test)");
  EXPECT_EQ(http.requests.back().method, "DELETE");
  EXPECT_EQ(http.requests.back().url, "http://127.0.0.1:9/bkt/runs/r.gsys-rep?uploadId=U1");
  EXPECT_NE(log_.find("aborted the incomplete multipart upload"), std::string::npos);
}

TEST_F(S3ClientTest, ErrorInsideA200CompleteIsAFailure) {
  FakeHttpClient http([](const HttpRequest& r) {
    if (r.method == "POST" && r.url.find("uploads=") != std::string::npos) {
      return Respond(
          200,
          "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>");
    }
    if (r.method == "PUT") return Respond(200, "", {{"etag", "\"e\""}});
    if (r.method == "DELETE") return Respond(204);
    return Respond(200,
                   "<Error><Code>InvalidPart</Code><Message>One or more parts could not be "
                   "found</Message></Error>");
  });
  UploadOptions o;
  o.multipart_threshold_bytes = 1;
  o.part_size_bytes = 5000;
  Status s = Client(&http, o).Upload("runs/r.gsys-rep", file_, data_.size());
  EXPECT_NE(s.message().find("CompleteMultipartUpload failed: HTTP 200 InvalidPart"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(http.requests.back().method, "DELETE");
}

TEST_F(S3ClientTest, RetriesThrottlingThenSucceeds) {
  int calls = 0;
  FakeHttpClient http([&](const HttpRequest&) {
    ++calls;
    if (calls == 1)
      return Respond(
          503, "<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>");
    if (calls == 2) {
      HttpResponse r;
      r.transport_error = "Connection reset by peer";
      return r;
    }
    return Respond(200);
  });
  ASSERT_TRUE(Client(&http).Upload("k", file_, data_.size()).ok());
  EXPECT_EQ(calls, 3);
  EXPECT_NE(log_.find("attempt 1/5 failed (HTTP 503 SlowDown)"), std::string::npos) << log_;
  EXPECT_NE(log_.find("attempt 2/5 failed (Connection reset by peer)"), std::string::npos) << log_;
}

TEST_F(S3ClientTest, BoundedRetriesOnUnreachableEndpoint) {
  FakeHttpClient http([](const HttpRequest&) {
    HttpResponse r;
    r.transport_error = "Couldn't connect to server";
    return r;
  });
  UploadOptions o;
  o.max_attempts = 4;
  Status s = Client(&http, o).Upload("k", file_, data_.size());
  EXPECT_EQ(http.requests.size(), 4u);
  EXPECT_EQ(s.message(),
            "upload: s3://bkt/runs/r.gsys-rep: PUT failed: Couldn't connect to server "
            "(http://127.0.0.1:9) (4 attempts)");
  EXPECT_LE(slept_ms_, 200 + 400 + 800);
}

TEST_F(S3ClientTest, ClientErrorsAreNotRetriedAndSecretsAreRedacted) {
  FakeHttpClient http([](const HttpRequest&) {
    return Respond(403,
                   "<Error><Code>SignatureDoesNotMatch</Code><Message>echo SECRET-VALUE-123 and "
                   "TOKEN-VALUE-456</Message></Error>");
  });
  Status s = Client(&http).Upload("k", file_, data_.size());
  EXPECT_EQ(http.requests.size(), 1u);
  EXPECT_EQ(s.message().find("SECRET-VALUE-123"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("TOKEN-VALUE-456"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("[redacted]"), std::string::npos);
}

TEST_F(S3ClientTest, ServerTextIsOneLineWithoutKeyIdOrSignature) {
  // A hostile store: terminal escapes, CR/LF with a forged line, and the request's own
  // Authorization header echoed back.
  FakeHttpClient http([](const HttpRequest& r) {
    std::string auth;
    for (const auto& [k, v] : r.headers) {
      if (k == "Authorization") auth = v;
    }
    return Respond(403,
                   "<Error><Code>Access\x1b[2JDenied</Code><Message>no\r\ngsys: uploaded "
                   "r to s3://b/ OK \xc2\x9b\xff " +
                       auth + "</Message></Error>");
  });
  Status s = Client(&http).Upload("k", file_, data_.size());
  const std::string& m = s.message();
  for (char c : m) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << m;
  EXPECT_EQ(m.find("AKIDTEST"), std::string::npos) << m;
  EXPECT_NE(m.find("...TEST"), std::string::npos) << m;
  EXPECT_NE(m.find("Signature=[signature]"), std::string::npos) << m;
  EXPECT_NE(m.find("\\r\\ngsys: uploaded"), std::string::npos) << m;
  EXPECT_NE(m.find("\\xc2\\x9b\\xff"), std::string::npos) << m;
}

TEST_F(S3ClientTest, FollowsTheBucketRegionOnce) {
  FakeHttpClient http([](const HttpRequest& r) {
    if (r.url.find("eu-west-1") != std::string::npos) return Respond(200);
    return Respond(
        301,
        "<Error><Code>PermanentRedirect</Code><Message>Use the right endpoint.</Message></Error>",
        {{"x-amz-bucket-region", "eu-west-1"}});
  });
  UploadOptions o;
  o.max_attempts = 1;
  o.log = [this](const std::string& l) { log_ += l + "\n"; };
  S3Client aws(
      &http,
      {"https://b.s3.us-east-1.amazonaws.com", "b.s3.us-east-1.amazonaws.com", "", "us-east-1"},
      {"A", "S", "", "t", 0}, o, "s3://b/k");
  aws.SetRelocate([](const std::string& region) -> Result<S3Location> {
    return S3Location{"https://b.s3." + region + ".amazonaws.com",
                      "b.s3." + region + ".amazonaws.com", "", region};
  });
  ASSERT_TRUE(aws.Upload("k", file_, data_.size()).ok());
  ASSERT_EQ(http.requests.size(), 2u);
  EXPECT_EQ(http.requests[1].url, "https://b.s3.eu-west-1.amazonaws.com/k");
  EXPECT_NE(HeaderOf(http.requests[1], "Authorization").find("/eu-west-1/s3/aws4_request"),
            std::string::npos);
  EXPECT_NE(log_.find("the bucket is in eu-west-1, not us-east-1"), std::string::npos) << log_;
}

TEST_F(S3ClientTest, PartSizeRules) {
  FakeHttpClient http([](const HttpRequest&) { return Respond(200); });
  UploadOptions o;
  o.part_size_bytes = 1 << 20;
  EXPECT_EQ(Client(&http, o).PartSizeFor(100ull << 20), 1ull << 20);  // custom endpoint: as asked
  EXPECT_EQ(Client(&http, o).PartSizeFor(100000ull << 20), 10ull * 1048576 + 0);  // <= 10,000 parts
  S3Client aws(
      &http,
      {"https://b.s3.us-east-1.amazonaws.com", "b.s3.us-east-1.amazonaws.com", "", "us-east-1"},
      {"A", "S", "", "t", 0}, o, "s3://b/k");
  EXPECT_EQ(aws.PartSizeFor(100ull << 20), 5ull << 20);  // AWS minimum
}

}  // namespace
}  // namespace gsys::upload
