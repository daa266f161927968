// SPDX-License-Identifier: Apache-2.0
// The MPI functions libgsys-mpi.so wraps, with the nsys table (MpiCategory) each call goes to.
// X(name, category): MPI_<name> is wrapped and forwards to PMPI_<name>. Nonblocking
// collectives (MPI-3) are listed with their blocking forms; both Open MPI 4+ and MPICH 3+
// export them. Fortran bindings (mpi_send_, ...) are not wrapped.
#pragma once

// clang-format reflows this list differently on every run.
// clang-format off
#define GSYS_MPI_FUNCTIONS(X)                                                                \
  /* point to point */                                                                       \
  X(Send, kP2p) X(Bsend, kP2p) X(Ssend, kP2p) X(Rsend, kP2p) X(Recv, kP2p)                  \
  X(Isend, kP2p) X(Ibsend, kP2p) X(Issend, kP2p) X(Irsend, kP2p) X(Irecv, kP2p)             \
  X(Send_init, kP2p) X(Recv_init, kP2p) X(Sendrecv, kP2p) X(Sendrecv_replace, kP2p)         \
  X(Probe, kP2p) X(Iprobe, kP2p)                                                             \
  /* start, wait and test */                                                                 \
  X(Start, kStartWait) X(Startall, kStartWait) X(Wait, kStartWait) X(Waitall, kStartWait)    \
  X(Waitany, kStartWait) X(Waitsome, kStartWait) X(Test, kStartWait)                         \
  X(Testall, kStartWait) X(Testany, kStartWait) X(Testsome, kStartWait)                      \
  /* collectives */                                                                          \
  X(Barrier, kCollective) X(Ibarrier, kCollective) X(Bcast, kCollective)                     \
  X(Ibcast, kCollective) X(Reduce, kCollective) X(Ireduce, kCollective)                      \
  X(Allreduce, kCollective) X(Iallreduce, kCollective) X(Allgather, kCollective)             \
  X(Iallgather, kCollective) X(Allgatherv, kCollective) X(Iallgatherv, kCollective)          \
  X(Gather, kCollective) X(Igather, kCollective) X(Gatherv, kCollective)                     \
  X(Igatherv, kCollective) X(Scatter, kCollective) X(Iscatter, kCollective)                  \
  X(Scatterv, kCollective) X(Iscatterv, kCollective) X(Alltoall, kCollective)                \
  X(Ialltoall, kCollective) X(Alltoallv, kCollective) X(Ialltoallv, kCollective)             \
  X(Reduce_scatter, kCollective) X(Ireduce_scatter, kCollective)                             \
  X(Reduce_scatter_block, kCollective) X(Ireduce_scatter_block, kCollective)                 \
  X(Scan, kCollective) X(Iscan, kCollective) X(Exscan, kCollective) X(Iexscan, kCollective)  \
  /* other */                                                                                \
  X(Init, kOther) X(Init_thread, kOther) X(Finalize, kOther) X(Comm_rank, kOther)            \
  X(Comm_size, kOther) X(Comm_dup, kOther) X(Comm_split, kOther) X(Comm_create, kOther)      \
  X(Comm_free, kOther)
// clang-format on
