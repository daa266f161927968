// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_xml.h"

#include <gtest/gtest.h>

#include "upload/json_fields.h"

namespace gsys::upload {
namespace {

TEST(S3XmlTest, ErrorBody) {
  S3Error e;
  ASSERT_TRUE(ParseS3Error(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SignatureDoesNotMatch</Code>"
      "<Message>The request signature we calculated does not match &amp; so on</Message>"
      "<StringToSign>AWS4-HMAC-SHA256...</StringToSign><RequestId>4442587FB7D0A2F9</RequestId></"
      "Error>",
      &e));
  EXPECT_EQ(e.code, "SignatureDoesNotMatch");
  EXPECT_EQ(e.message, "The request signature we calculated does not match & so on");
}

TEST(S3XmlTest, NotAnError) {
  S3Error e;
  EXPECT_FALSE(ParseS3Error("", &e));
  EXPECT_FALSE(ParseS3Error("<html>gateway timeout</html>", &e));
  EXPECT_FALSE(ParseS3Error(
      "<CompleteMultipartUploadResult><ETag>x</ETag></CompleteMultipartUploadResult>", &e));
  EXPECT_FALSE(ParseS3Error("<Error><Code>x</Code>", &e));  // truncated
}

TEST(S3XmlTest, UploadId) {
  auto id = ParseUploadId(
      "<?xml version=\"1.0\"?><InitiateMultipartUploadResult "
      "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
      "<Bucket>b</Bucket><Key>k</"
      "Key><UploadId>VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>"
      "</InitiateMultipartUploadResult>");
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA");
  EXPECT_FALSE(
      ParseUploadId(
          "<InitiateMultipartUploadResult><UploadId>  </UploadId></InitiateMultipartUploadResult>")
          .ok());
  EXPECT_FALSE(ParseUploadId("<Other><UploadId>x</UploadId></Other>").ok());
}

TEST(S3XmlTest, SyntaxCoverage) {
  auto doc = ParseXml(
      "\xEF\xBB\xBF<!-- c --><a:Root x='1' y=\"2\"><b/><c>&#65;&#x42;<![CDATA[<raw>]]>&lt;</c><!-- "
      "d --></a:Root>\n");
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->name, "Root");
  ASSERT_EQ(doc->children.size(), 2u);
  EXPECT_EQ(doc->Child("c")->text, "AB<raw><");
  EXPECT_EQ(doc->Child("missing"), nullptr);
}

TEST(S3XmlTest, MalformedInputsAreErrors) {
  for (const char* bad : {"", "<", "<a>", "<a></b>", "<a>&bogus;</a>", "<a>&#xZZ;</a>",
                          "<a>&#1114112;</a>", "<a x='1></a>", "<a></a><b></b>", "text",
                          "<a><![CDATA[x</a>", "<a><!-- x</a>", "<?xml", "<a>&amp</a>"}) {
    EXPECT_FALSE(ParseXml(bad).ok()) << bad;
  }
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "<a>";
  for (int i = 0; i < 40; ++i) deep += "</a>";
  EXPECT_FALSE(ParseXml(deep).ok());
  EXPECT_EQ(ParseXml(deep).status().code(), StatusCode::kBadInput);
}

TEST(S3XmlTest, Escape) { EXPECT_EQ(XmlEscape("\"a\"&<b>'"), "&quot;a&quot;&amp;&lt;b&gt;&apos;"); }

TEST(JsonFieldsTest, CredentialsDocument) {
  auto f = ParseJsonStringFields(
      "{\n  \"Code\" : \"Success\", \"LastUpdated\" : \"2012-04-26T16:39:16Z\", \"Type\" : "
      "\"AWS-HMAC\",\n"
      "  \"AccessKeyId\" : \"ASIAEXAMPLE\", \"SecretAccessKey\" : \"s\\/e\\u0063ret\",\n"
      "  \"Token\" : \"tok\", \"Expiration\" : \"2017-05-17T15:09:54Z\", \"n\": -1.5e3, \"o\": "
      "{\"x\": [1, true, null]}\n}");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->at("AccessKeyId"), "ASIAEXAMPLE");
  EXPECT_EQ(f->at("SecretAccessKey"), "s/ecret");
  EXPECT_EQ(f->count("n"), 0u);
}

TEST(JsonFieldsTest, Malformed) {
  for (const char* bad :
       {"", "{", "[]", "{\"a\":}", "{\"a\" \"b\"}", "{\"a\":\"b\",}", "{\"a\":\"\\q\"}",
        "{\"a\":\"b\"} x", "{\"a\":[1,}", "{\"a\":\"\\u12\"}"}) {
    EXPECT_FALSE(ParseJsonStringFields(bad).ok()) << bad;
  }
  std::string deep = "{\"a\":";
  for (int i = 0; i < 50; ++i) deep += "[";
  for (int i = 0; i < 50; ++i) deep += "]";
  deep += "}";
  EXPECT_FALSE(ParseJsonStringFields(deep).ok());
}

}  // namespace
}  // namespace gsys::upload
