// SPDX-License-Identifier: Apache-2.0
// Fuzz target: S3 response bodies (upload/s3_xml): the XML reader, the <Error> and
// InitiateMultipartUploadResult readers. Also checks that escaping round-trips: any text put
// through XmlEscape inside an element parses back to the same text, and that the failure
// message built from the body (and from the input as a transport error) is one printable line:
// no control character, valid UTF-8, bounded, no full access key id, secret or signature.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "upload/s3_client.h"
#include "upload/s3_xml.h"

namespace {

constexpr char kKeyId[] = "AKIAFUZZEXAMPLE7ABCD";
constexpr char kSecret[] = "fuzzSecretKeyEXAMPLE0123456789abcdefghij";

// Aborts unless `m` is one line of printable UTF-8 without credentials.
void CheckMessage(const std::string& m) {
  if (m.size() > 2048) std::abort();
  if (m.find(kKeyId) != std::string::npos || m.find(kSecret) != std::string::npos) std::abort();
  for (size_t i = 0; i < m.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(m[i]);
    if (c < 0x20 || c == 0x7f) std::abort();
    if (c < 0x80) continue;
    // A UTF-8 sequence: lead byte 0xc2..0xf4, continuation bytes, not a C1 control.
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (n == 0 || c > 0xf4 || i + n > m.size()) std::abort();
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(m[i + k]) & 0xc0) != 0x80) std::abort();
    }
    if (c == 0xc2 && static_cast<unsigned char>(m[i + 1]) < 0xa0) std::abort();
    i += n - 1;
  }
  size_t hex = 0;
  for (char ch : m) {
    hex = std::isxdigit(static_cast<unsigned char>(ch)) ? hex + 1 : 0;
    if (hex >= 64) std::abort();  // a signature would show
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto doc = gsys::upload::ParseXml(body);
  if (doc.ok()) (void)doc->Child("Code");
  gsys::upload::S3Error error;
  (void)gsys::upload::ParseS3Error(body, &error);
  auto id = gsys::upload::ParseUploadId(body);
  (void)id;
  gsys::upload::AwsCredentials creds;
  creds.access_key_id = kKeyId;
  creds.secret_access_key = kSecret;
  creds.source = "fuzz";
  for (int status : {403, 500, 0}) {
    gsys::upload::HttpResponse r;
    r.status = status;
    r.body = std::string(body);
    if (status == 0) r.transport_error = std::string(body);
    CheckMessage(gsys::upload::DescribeS3Failure("s3://b/k", "PUT", r, "http://h", 1, creds));
  }
  CheckMessage(gsys::upload::SafeMessage(std::string(body), creds));
  // Round trip of the escaper, on inputs XML 1.0 can carry (no NUL, no other C0 controls
  // except tab/newline/CR) and without CR (XML normalizes line ends).
  std::string text(body.substr(0, 256));
  for (char& c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n') c = ' ';
  }
  auto back = gsys::upload::ParseXml("<Key>" + gsys::upload::XmlEscape(text) + "</Key>");
  if (!back.ok() || back->text != text) std::abort();
  return 0;
}
