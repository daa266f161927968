// SPDX-License-Identifier: Apache-2.0
// The capture domains compiled into libgsys-inject.so. CUDA is there when the CUPTI headers were
// found.
#include "capture/capture_domain.h"

namespace gsys::capture {

CaptureDomain* NvtxCaptureDomain();
CaptureDomain* OsrtCaptureDomain();
CaptureDomain* StackCaptureDomain();
#ifdef GSYS_HAVE_CUPTI
CaptureDomain* CudaCaptureDomain();
#endif
#ifdef GSYS_HAVE_LIBAPI
CaptureDomain* LibApiCaptureDomain();
#endif

CaptureDomain* const* AllCaptureDomains(int* count) {
  static CaptureDomain* const domains[] = {
      NvtxCaptureDomain(),   OsrtCaptureDomain(), StackCaptureDomain(),
#ifdef GSYS_HAVE_CUPTI
      CudaCaptureDomain(),
#endif
#ifdef GSYS_HAVE_LIBAPI
      LibApiCaptureDomain(),
#endif
  };
  *count = static_cast<int>(sizeof(domains) / sizeof(domains[0]));
  return domains;
}

}  // namespace gsys::capture
