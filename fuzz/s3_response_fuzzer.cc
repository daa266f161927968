// SPDX-License-Identifier: Apache-2.0
// Fuzz target: S3 response bodies (upload/s3_xml): the XML reader, the <Error> and
// InitiateMultipartUploadResult readers. Also checks that escaping round-trips: any text put
// through XmlEscape inside an element parses back to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "upload/s3_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto doc = gsys::upload::ParseXml(body);
  if (doc.ok()) (void)doc->Child("Code");
  gsys::upload::S3Error error;
  (void)gsys::upload::ParseS3Error(body, &error);
  auto id = gsys::upload::ParseUploadId(body);
  (void)id;
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
