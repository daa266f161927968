// SPDX-License-Identifier: Apache-2.0
// A small, defensive XML reader for S3's responses (errors, InitiateMultipartUploadResult,
// CompleteMultipartUploadResult). Pure functions from bytes to results: no I/O, bounded depth
// and size, every malformed input is an error value (fuzzed by tests/fuzz).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace gsys::upload {

struct XmlElement {
  std::string name;  // local name (any "prefix:" removed)
  std::string text;  // character data directly inside, entities decoded
  std::vector<XmlElement> children;

  // The first direct child called `name`, or nullptr.
  const XmlElement* Child(std::string_view child_name) const;
};

// Parses one document (prolog, comments, CDATA, attributes skipped; entities decoded).
// kBadInput on malformed input, on nesting deeper than 32 or on more than 4 MiB.
Result<XmlElement> ParseXml(std::string_view bytes);

struct S3Error {
  std::string code;     // "SignatureDoesNotMatch"
  std::string message;  // "The request signature we calculated does not match ..."
};

// The <Error> of an S3 error body, if `body` is one (S3 sends errors with 200 too, for
// CompleteMultipartUpload). Never fails: anything else gives found=false.
bool ParseS3Error(std::string_view body, S3Error* error);

// The UploadId of an InitiateMultipartUploadResult, or kBadInput.
Result<std::string> ParseUploadId(std::string_view body);

// Escapes text for an XML element body (& < > " ').
std::string XmlEscape(std::string_view text);

}  // namespace gsys::upload
