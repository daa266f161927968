// SPDX-License-Identifier: Apache-2.0
// Fuzz target: what the upload module reads from files, services and the environment: AWS
// shared config/credentials files (INI), the credential JSON of the container and instance
// metadata endpoints, upload destinations, and GSYS_UPLOAD_* values. The input's first byte
// picks the parser; nothing may crash, and parsed destinations keep their invariants.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "upload/aws_config_files.h"
#include "upload/destination.h"
#include "upload/json_fields.h"
#include "upload/upload_options_env.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0: {
      auto ini = gsys::upload::ParseIni(text);
      (void)ini;
      break;
    }
    case 1: {
      auto fields = gsys::upload::ParseJsonStringFields(text);
      (void)fields;
      break;
    }
    case 2: {
      auto d = gsys::upload::ParseDestination(text);
      if (d.ok()) {
        const std::string& p = d->prefix;
        bool file = d->kind == gsys::upload::DestinationKind::kFile;
        if (file && (p.empty() || p.front() != '/' || p.back() != '/')) std::abort();
        if (!file && (d->bucket.empty() || (!p.empty() && p.back() != '/'))) std::abort();
      }
      (void)gsys::upload::BaseName(text);
      break;
    }
    case 3: {
      (void)gsys::upload::ParseByteSize(text);
      break;
    }
    default: {
      gsys::upload::Environment env =
          [&text](const std::string& name) -> std::optional<std::string> {
        if (name.rfind("GSYS_UPLOAD_", 0) == 0) return text;
        return std::nullopt;
      };
      auto o = gsys::upload::ApplyEnvironmentOverrides(gsys::upload::UploadOptions{}, env);
      (void)o;
      break;
    }
  }
  return 0;
}
