// SPDX-License-Identifier: Apache-2.0
// Known-answer tests: every expected value below is published by AWS (the SigV4 test suite
// "aws-sig-v4-test-suite", the S3 API reference's header-auth and streaming examples, and the
// IAM guide's signing-key example), not computed by this code.
#include "upload/sigv4.h"

#include <gtest/gtest.h>

#include "upload/crypto.h"

namespace gsys::upload {
namespace {

// The test suite's example credentials (AWS documentation, not a real account).
AwsCredentials SuiteCredentials() {
  return {"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "", "test", 0};
}
// The S3 API reference's example credentials.
AwsCredentials S3DocCredentials() {
  return {"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "", "test", 0};
}
const SigV4Scope kSuiteScope{"20150830T123600Z", "us-east-1", "service"};
const SigV4Scope kS3Scope{"20130524T000000Z", "us-east-1", "s3"};

std::string SignatureOf(const std::string& authorization) {
  size_t at = authorization.find("Signature=");
  return at == std::string::npos ? "" : authorization.substr(at + 10);
}

// A test-suite request: host example.amazonaws.com plus `extra` headers, empty payload.
SigV4Request SuiteRequest(const std::string& method, const std::string& uri,
                          std::vector<std::pair<std::string, std::string>> query,
                          HeaderList extra = {}) {
  SigV4Request r;
  r.method = method;
  r.canonical_uri = uri;
  r.query = std::move(query);
  r.headers = {{"Host", "example.amazonaws.com"}};
  for (auto& h : extra) r.headers.push_back(h);
  r.payload_hash = kEmptyPayloadSha256;
  return r;
}

std::string SignSuite(SigV4Request r, const AwsCredentials& creds = SuiteCredentials()) {
  SignRequest(&r, creds, kSuiteScope, /*add_content_sha256=*/false);
  return r.headers.back().second;
}

TEST(SigV4Test, SigningKeyFromIamGuide) {
  EXPECT_EQ(HexEncode(SigningKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215",
                                 "us-east-1", "iam")),
            "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

TEST(SigV4Test, GetVanilla) {
  SigV4Request r = SuiteRequest("GET", "/", {});
  r.headers.emplace_back("X-Amz-Date", "20150830T123600Z");
  EXPECT_EQ(CanonicalRequest(r),
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(StringToSign(CanonicalRequest(r), kSuiteScope),
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
            "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
  EXPECT_EQ(SignSuite(SuiteRequest("GET", "/", {})),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4Test, QueryVectors) {
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest("GET", "/", {{"Param1", "value1"}}))),
            "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb");  // empty-query-key
  EXPECT_EQ(SignatureOf(
                SignSuite(SuiteRequest("GET", "/", {{"Param2", "value2"}, {"Param1", "value1"}}))),
            "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");  // order-key-case
  EXPECT_EQ(SignatureOf(
                SignSuite(SuiteRequest("GET", "/", {{"Param1", "value2"}, {"Param1", "Value1"}}))),
            "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1");  // order-key
  EXPECT_EQ(SignatureOf(
                SignSuite(SuiteRequest("GET", "/", {{"Param1", "value2"}, {"Param1", "value1"}}))),
            "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694");  // order-value
  const std::string unreserved =
      "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest("GET", "/", {{unreserved, unreserved}}))),
            "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197");
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest("GET", "/" + UriEncode(unreserved, false), {}))),
            "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f");  // get-unreserved
}

TEST(SigV4Test, HeaderVectors) {
  EXPECT_EQ(
      SignSuite(SuiteRequest("GET", "/", {},
                             {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}})),
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
      "SignedHeaders=host;my-header1;my-header2;x-amz-date, "
      "Signature=acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736");  // value-trim
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest(
                "GET", "/", {},
                {{"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}}))),
            "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea");  // key-duplicate
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest("GET", "/", {},
                                               {{"My-Header1", "value4"},
                                                {"My-Header1", "value1"},
                                                {"My-Header1", "value3"},
                                                {"My-Header1", "value2"}}))),
            "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01");  // value-order
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest("POST", "/", {}))),
            "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");  // post-vanilla
  EXPECT_EQ(SignatureOf(SignSuite(SuiteRequest("POST", "/", {}, {{"My-Header1", "VALUE1"}}))),
            "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d");  // value-case
}

TEST(SigV4Test, SessionTokenIsSigned) {  // post-sts-token/post-sts-header-before
  AwsCredentials creds = SuiteCredentials();
  creds.session_token =
      "AQoDYXdzEPT//////////"
      "wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPf"
      "IeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/"
      "kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ"
      "0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+"
      "scqKmlzm8FDr"
      "ypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";
  SigV4Request r = SuiteRequest("POST", "/", {});
  SignRequest(&r, creds, kSuiteScope, false);
  EXPECT_EQ(r.headers.back().second,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date;x-amz-security-token, "
            "Signature=85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead");
  bool token_sent = false;
  for (auto& [k, v] : r.headers)
    token_sent |= (k == "x-amz-security-token" && v == creds.session_token);
  EXPECT_TRUE(token_sent);
}

// S3 API reference, "Examples: Signature Calculations" (header-based auth).
SigV4Request S3DocRequest(const std::string& method, const std::string& uri,
                          std::vector<std::pair<std::string, std::string>> query, HeaderList extra,
                          const std::string& payload_hash) {
  SigV4Request r;
  r.method = method;
  r.canonical_uri = uri;
  r.query = std::move(query);
  r.headers = {{"Host", "examplebucket.s3.amazonaws.com"}};
  for (auto& h : extra) r.headers.push_back(h);
  r.payload_hash = payload_hash;
  SignRequest(&r, S3DocCredentials(), kS3Scope, /*add_content_sha256=*/true);
  return r;
}

TEST(SigV4Test, S3GetObject) {
  SigV4Request r =
      S3DocRequest("GET", "/test.txt", {}, {{"Range", "bytes=0-9"}}, kEmptyPayloadSha256);
  const std::string& auth = r.headers.back().second;
  EXPECT_NE(auth.find("Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request"),
            std::string::npos);
  EXPECT_NE(auth.find("SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"),
            std::string::npos);
  EXPECT_EQ(SignatureOf(auth), "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, S3PutObject) {
  std::string payload_hash = Sha256Hex("Welcome to Amazon S3.");
  EXPECT_EQ(payload_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  SigV4Request r = S3DocRequest(
      "PUT", "/" + UriEncode("test$file.text", false), {},
      {{"Date", "Fri, 24 May 2013 00:00:00 GMT"}, {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
      payload_hash);
  EXPECT_EQ(r.canonical_uri, "/test%24file.text");
  const std::string& auth = r.headers.back().second;
  EXPECT_NE(
      auth.find("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,"),
      std::string::npos);
  EXPECT_EQ(SignatureOf(auth), "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(SigV4Test, S3GetBucketLifecycleAndList) {
  SigV4Request life = S3DocRequest("GET", "/", {{"lifecycle", ""}}, {}, kEmptyPayloadSha256);
  EXPECT_EQ(CanonicalRequest(life).substr(0, 17), "GET\n/\nlifecycle=\n");
  EXPECT_EQ(SignatureOf(life.headers.back().second),
            "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  SigV4Request list =
      S3DocRequest("GET", "/", {{"prefix", "J"}, {"max-keys", "2"}}, {}, kEmptyPayloadSha256);
  EXPECT_EQ(CanonicalQueryString(list.query), "max-keys=2&prefix=J");
  EXPECT_EQ(SignatureOf(list.headers.back().second),
            "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

// S3 API reference, "Signature Calculations for the Authorization Header: Transferring
// Payload in Multiple Chunks": the seed request's signature (payload hash is a literal).
TEST(SigV4Test, S3StreamingSeedSignature) {
  SigV4Request r;
  r.method = "PUT";
  r.canonical_uri = "/examplebucket/chunkObject.txt";
  r.headers = {{"Host", "s3.amazonaws.com"},
               {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
               {"Content-Encoding", "aws-chunked"},
               {"x-amz-decoded-content-length", "66560"},
               {"Content-Length", "66824"}};
  r.payload_hash = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  SignRequest(&r, S3DocCredentials(), kS3Scope, true);
  // The canonical request hash AWS prints in the example's string to sign.
  SigV4Request unsigned_copy = r;
  unsigned_copy.headers.pop_back();
  EXPECT_EQ(Sha256Hex(CanonicalRequest(unsigned_copy)),
            "cee3fed04b70f867d036f722359b0b1f2f0e5dc0efadbc082b76c4c60e316455");
  EXPECT_EQ(SignatureOf(r.headers.back().second),
            "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
}

TEST(SigV4Test, WrongSecretChangesSignature) {
  AwsCredentials wrong = SuiteCredentials();
  wrong.secret_access_key = "not-the-secret";
  EXPECT_NE(SignatureOf(SignSuite(SuiteRequest("GET", "/", {}), wrong)),
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4Test, UriEncodeAndDate) {
  EXPECT_EQ(UriEncode("a b/c~d*é", false), "a%20b/c~d%2A%C3%A9");
  EXPECT_EQ(UriEncode("a/b", true), "a%2Fb");
  EXPECT_EQ(AmzDate(1440938160), "20150830T123600Z");
  EXPECT_EQ(AmzDate(951782400), "20000229T000000Z");
}

TEST(CryptoTest, KnownDigests) {
  EXPECT_EQ(Sha256Hex(""), kEmptyPayloadSha256);
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(HexEncode(Md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Base64Encode(Md5("")), "1B2M2Y8AsgTpgAmY7PhCfg==");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  // RFC 4231 test case 2.
  EXPECT_EQ(HexEncode(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // RFC 4231 test case 6: a key longer than the block is hashed first.
  EXPECT_EQ(HexEncode(HmacSha256(std::string(131, '\xaa'),
                                 "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  StreamHasher h;
  h.Update("a", 1);
  h.Update("bc", 2);
  std::string sha, md5;
  h.Finish(&sha, &md5);
  EXPECT_EQ(HexEncode(sha), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(HexEncode(md5), "900150983cd24fb0d6963f7d28e17f72");
}

}  // namespace
}  // namespace gsys::upload
