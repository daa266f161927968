// SPDX-License-Identifier: Apache-2.0
#include "upload/credentials.h"

namespace gsys::upload {

std::string AwsCredentials::Describe() const {
  std::string id =
      access_key_id.size() > 4 ? "..." + access_key_id.substr(access_key_id.size() - 4) : "(short)";
  return "access key " + id + " from " + (source.empty() ? "unknown source" : source);
}

}  // namespace gsys::upload
