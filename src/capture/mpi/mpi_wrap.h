// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the MPI_* wrapper files (mpi_p2p.cc, mpi_collectives.cc, mpi_other.cc).
// Each wrapper fetches PMPI_<name>, opens a Call, fills it only when it records, and runs the
// real function between Begin and End.
#pragma once

#include "capture/mpi/mpi_runtime.h"

#define GSYS_MPI_EXPORT extern "C" __attribute__((visibility("default")))

// Declares `real` (PMPI_<name>) and `c` (the Call); returns an MPI error without the real one.
#define GSYS_MPI_ENTER(name)                               \
  auto real = GSYS_MPI_REAL(name);                         \
  if (real == nullptr) return NoRealFunction(Fn::k##name); \
  Call c(Fn::k##name)

namespace gsys::capture::mpi {

using Status = void;  // MPI_Status: only passed through

template <typename F, typename... A>
inline int Run(Call& c, F real, A... args) {
  c.Begin();
  int rc = real(args...);
  c.End();
  return rc;
}

// Nonblocking calls: the request handle exists only after the call.
template <typename F, typename... A>
inline int RunRequest(Call& c, const Handle* request, F real, A... args) {
  c.Begin();
  int rc = real(args...);
  if (c.on()) c.Request(RequestAt(request, 0));
  c.End();
  return rc;
}

}  // namespace gsys::capture::mpi
