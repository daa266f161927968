// SPDX-License-Identifier: Apache-2.0
// AWS credentials and where they came from. The secret and the token are never put in a
// message: use Describe() for anything that is printed.
#pragma once

#include <cstdint>
#include <string>

namespace gsys::upload {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: long-term credentials
  std::string source;         // "environment", "profile 'x' in ~/.aws/credentials", ...
  int64_t expires_unix = 0;   // 0: does not expire

  // "access key AKIA...XMPL from SOURCE": safe to print (last 4 characters of the key id).
  std::string Describe() const;
};

}  // namespace gsys::upload
