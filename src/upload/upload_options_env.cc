// SPDX-License-Identifier: Apache-2.0
#include "upload/upload_options_env.h"

#include "common/strings.h"

namespace gsys::upload {

std::optional<uint64_t> ParseByteSize(const std::string& text) {
  std::string t = ToLower(Trim(text));
  uint64_t mult = 1;
  if (EndsWith(t, "ib") && t.size() >= 3)
    t.resize(t.size() - 2);  // "5MiB" -> "5m"
  else if (EndsWith(t, "b"))
    t.pop_back();  // "5MB" -> "5m", "7b" -> "7"
  if (!t.empty()) {
    char last = t.back();
    if (last == 'k') mult = 1ull << 10;
    if (last == 'm') mult = 1ull << 20;
    if (last == 'g') mult = 1ull << 30;
    if (mult != 1) t.pop_back();
  }
  std::optional<int64_t> n = ParseInt64(t);
  if (!n || *n < 0) return std::nullopt;
  uint64_t v = static_cast<uint64_t>(*n);
  if (v != 0 && mult > UINT64_MAX / v) return std::nullopt;
  return v * mult;
}

Result<UploadOptions> ApplyEnvironmentOverrides(UploadOptions base, const Environment& env) {
  if (auto v = NonEmpty(env, "GSYS_UPLOAD_MULTIPART_THRESHOLD")) {
    auto n = ParseByteSize(*v);
    if (!n)
      return Error(StatusCode::kInvalidArgument,
                   "upload: GSYS_UPLOAD_MULTIPART_THRESHOLD='" + *v + "' is not a size");
    base.multipart_threshold_bytes = *n;
  }
  if (auto v = NonEmpty(env, "GSYS_UPLOAD_PART_SIZE")) {
    auto n = ParseByteSize(*v);
    if (!n || *n == 0)
      return Error(StatusCode::kInvalidArgument,
                   "upload: GSYS_UPLOAD_PART_SIZE='" + *v + "' is not a positive size");
    base.part_size_bytes = *n;
  }
  if (auto v = NonEmpty(env, "GSYS_UPLOAD_MAX_ATTEMPTS")) {
    auto n = ParseInt64(*v);
    if (!n || *n < 1 || *n > 100)
      return Error(StatusCode::kInvalidArgument,
                   "upload: GSYS_UPLOAD_MAX_ATTEMPTS='" + *v + "' is not 1..100");
    base.max_attempts = static_cast<int>(*n);
  }
  if (base.part_size_bytes == 0) base.part_size_bytes = 1;
  if (base.max_attempts < 1) base.max_attempts = 1;
  return base;
}

}  // namespace gsys::upload
