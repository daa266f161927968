// SPDX-License-Identifier: Apache-2.0
// The capture domains compiled into libgsys-inject.so. CUDA (issue 4) adds one line.
#include "capture/capture_domain.h"

namespace gsys::capture {

CaptureDomain* NvtxCaptureDomain();
CaptureDomain* OsrtCaptureDomain();

CaptureDomain* const* AllCaptureDomains(int* count) {
  static CaptureDomain* const domains[] = {NvtxCaptureDomain(), OsrtCaptureDomain()};
  *count = static_cast<int>(sizeof(domains) / sizeof(domains[0]));
  return domains;
}

}  // namespace gsys::capture
