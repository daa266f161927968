// SPDX-License-Identifier: Apache-2.0
#include "cli/exit_codes.h"

namespace gsys::cli {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
    case StatusCode::kNoData:
      return kExitOk;
    case StatusCode::kInvalidArgument:
      return kExitUsage;
    case StatusCode::kNotFound:
      return kExitNotFound;
    case StatusCode::kBadInput:
      return kExitBadInput;
    case StatusCode::kUnsupported:
      return kExitUnsupported;
    case StatusCode::kIoError:
      return kExitIo;
    case StatusCode::kInternal:
      return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace gsys::cli
