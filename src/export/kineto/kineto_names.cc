// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/kineto_names.h"

namespace gsys::export_ {

std::string_view KinetoApiName(std::string_view name) {
  size_t v = name.rfind("_v");
  if (v == std::string_view::npos || v == 0) return name;
  std::string_view digits = name.substr(v + 2);
  // nsys's suffix is the CUDA version that introduced the call (3020, 11030): 4+ digits. A
  // shorter one ("_v2") is part of CUPTI's own name.
  if (digits.size() < 4) return name;
  for (char c : digits) {
    if (c < '0' || c > '9') return name;
  }
  return name.substr(0, v);
}

std::string_view KinetoCategory(EventKind kind, std::string_view category) {
  switch (kind) {
    case EventKind::kNvtxRange:
    case EventKind::kNvtxAsync:
    case EventKind::kNvtxMark:
      return "user_annotation";
    default:
      return category;
  }
}

}  // namespace gsys::export_
