// SPDX-License-Identifier: Apache-2.0
// MPI_OTHER_EVENTS wrappers: initialization, finalization and communicator management. A
// successful MPI_Init/MPI_Init_thread also records the process's rank (MPI_RANKS).
#include "capture/mpi/mpi_wrap.h"

using gsys::capture::mpi::Call;
using gsys::capture::mpi::Fn;
using gsys::capture::mpi::Handle;
using gsys::capture::mpi::NoRealFunction;
using gsys::capture::mpi::RecordRank;
using gsys::capture::mpi::Run;

GSYS_MPI_EXPORT int MPI_Init(int* argc, char*** argv) {
  int rc = 0;
  {
    GSYS_MPI_ENTER(Init);
    rc = Run(c, real, argc, argv);
  }
  if (rc == 0) RecordRank();
  return rc;
}

GSYS_MPI_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  int rc = 0;
  {
    GSYS_MPI_ENTER(Init_thread);
    rc = Run(c, real, argc, argv, required, provided);
  }
  if (rc == 0) RecordRank();
  return rc;
}

GSYS_MPI_EXPORT int MPI_Finalize() {
  GSYS_MPI_ENTER(Finalize);
  return Run(c, real);
}

GSYS_MPI_EXPORT int MPI_Comm_rank(Handle comm, int* rank) {
  GSYS_MPI_ENTER(Comm_rank);
  return Run(c, real, comm, rank);
}

GSYS_MPI_EXPORT int MPI_Comm_size(Handle comm, int* size) {
  GSYS_MPI_ENTER(Comm_size);
  return Run(c, real, comm, size);
}

GSYS_MPI_EXPORT int MPI_Comm_dup(Handle comm, Handle* newcomm) {
  GSYS_MPI_ENTER(Comm_dup);
  return Run(c, real, comm, newcomm);
}

GSYS_MPI_EXPORT int MPI_Comm_split(Handle comm, int color, int key, Handle* newcomm) {
  GSYS_MPI_ENTER(Comm_split);
  return Run(c, real, comm, color, key, newcomm);
}

GSYS_MPI_EXPORT int MPI_Comm_create(Handle comm, Handle group, Handle* newcomm) {
  GSYS_MPI_ENTER(Comm_create);
  return Run(c, real, comm, group, newcomm);
}

GSYS_MPI_EXPORT int MPI_Comm_free(Handle* comm) {
  GSYS_MPI_ENTER(Comm_free);
  return Run(c, real, comm);
}
