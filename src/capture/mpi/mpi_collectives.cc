// SPDX-License-Identifier: Apache-2.0
// Collective wrappers (MPI_COLLECTIVES_EVENTS), each with its MPI-3 nonblocking I-form.
// `size` is what this rank sends, `recvSize` what it receives (-1, stored as NULL, where the
// rank takes no part in that direction, e.g. the send side of a non-root rank in MPI_Bcast or
// the receive side of a non-root rank in MPI_Reduce/MPI_Gather). MPI_IN_PLACE counts the
// buffer the operation works on. Group sizes are those of the local group (intercommunicators
// are not treated specially).
#include "capture/mpi/mpi_wrap.h"
#include "format/libapi_records.h"

using gsys::capture::mpi::Bytes;
using gsys::capture::mpi::Call;
using gsys::capture::mpi::CommRank;
using gsys::capture::mpi::CommSize;
using gsys::capture::mpi::Fn;
using gsys::capture::mpi::Handle;
using gsys::capture::mpi::InPlace;
using gsys::capture::mpi::NoRealFunction;
using gsys::capture::mpi::OwnBytes;
using gsys::capture::mpi::Run;
using gsys::capture::mpi::RunRequest;
using gsys::capture::mpi::SumBytes;
using gsys::format::kMpiNone;

#define GSYS_MPI_ARGS(...) __VA_ARGS__
#define GSYS_MPI_WITH_REQUEST_PARAM(...) (__VA_ARGS__, Handle * request)
#define GSYS_MPI_WITH_REQUEST_ARG(...) __VA_ARGS__, request

// MPI_<name> and its I-form MPI_<iname>: `params` and `args` in parentheses, then the
// statements that fill the Call (run only when it records).
#define GSYS_MPI_COLLECTIVE(name, iname, params, args, ...)              \
  GSYS_MPI_EXPORT int MPI_##name params {                                \
    GSYS_MPI_ENTER(name);                                                \
    if (c.on()) {                                                        \
      __VA_ARGS__;                                                       \
    }                                                                    \
    return Run(c, real, GSYS_MPI_ARGS args);                             \
  }                                                                      \
  GSYS_MPI_EXPORT int MPI_##iname GSYS_MPI_WITH_REQUEST_PARAM params {   \
    GSYS_MPI_ENTER(iname);                                               \
    if (c.on()) {                                                        \
      __VA_ARGS__;                                                       \
    }                                                                    \
    return RunRequest(c, request, real, GSYS_MPI_WITH_REQUEST_ARG args); \
  }

namespace {

// Rooted collectives: whether this rank is the root.
bool IsRoot(Handle comm, int root) { return CommRank(comm) == root; }

}  // namespace

GSYS_MPI_COLLECTIVE(Barrier, Ibarrier, (Handle comm), (comm), c.Collective(comm, kMpiNone, -1, -1))

GSYS_MPI_COLLECTIVE(Bcast, Ibcast, (void* buf, int count, Handle type, int root, Handle comm),
                    (buf, count, type, root, comm), const int64_t b = Bytes(count, type);
                    const bool me = IsRoot(comm, root);
                    c.Collective(comm, root, me ? b : -1, me ? -1 : b))

GSYS_MPI_COLLECTIVE(Reduce, Ireduce,
                    (const void* sendbuf, void* recvbuf, int count, Handle type, Handle op,
                     int root, Handle comm),
                    (sendbuf, recvbuf, count, type, op, root, comm),
                    const int64_t b = Bytes(count, type);
                    c.Collective(comm, root, b, IsRoot(comm, root) ? b : -1))

GSYS_MPI_COLLECTIVE(Allreduce, Iallreduce,
                    (const void* sendbuf, void* recvbuf, int count, Handle type, Handle op,
                     Handle comm),
                    (sendbuf, recvbuf, count, type, op, comm), const int64_t b = Bytes(count, type);
                    c.Collective(comm, kMpiNone, b, b))

GSYS_MPI_COLLECTIVE(Allgather, Iallgather,
                    (const void* sendbuf, int sendcount, Handle sendtype, void* recvbuf,
                     int recvcount, Handle recvtype, Handle comm),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                    const int64_t send = InPlace(sendbuf) ? Bytes(recvcount, recvtype)
                                                          : Bytes(sendcount, sendtype);
                    c.Collective(comm, kMpiNone, send,
                                 Bytes(int64_t{recvcount} * CommSize(comm), recvtype)))

GSYS_MPI_COLLECTIVE(Allgatherv, Iallgatherv,
                    (const void* sendbuf, int sendcount, Handle sendtype, void* recvbuf,
                     const int* recvcounts, const int* displs, Handle recvtype, Handle comm),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                    const int64_t send = InPlace(sendbuf) ? OwnBytes(recvcounts, comm, recvtype)
                                                          : Bytes(sendcount, sendtype);
                    c.Collective(comm, kMpiNone, send, SumBytes(recvcounts, comm, recvtype)))

GSYS_MPI_COLLECTIVE(Gather, Igather,
                    (const void* sendbuf, int sendcount, Handle sendtype, void* recvbuf,
                     int recvcount, Handle recvtype, int root, Handle comm),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
                    const bool me = IsRoot(comm, root);
                    const int64_t send = me && InPlace(sendbuf) ? Bytes(recvcount, recvtype)
                                                                : Bytes(sendcount, sendtype);
                    c.Collective(comm, root, send,
                                 me ? Bytes(int64_t{recvcount} * CommSize(comm), recvtype) : -1))

GSYS_MPI_COLLECTIVE(
    Gatherv, Igatherv,
    (const void* sendbuf, int sendcount, Handle sendtype, void* recvbuf, const int* recvcounts,
     const int* displs, Handle recvtype, int root, Handle comm),
    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
    const bool me = IsRoot(comm, root);
    const int64_t send = me && InPlace(sendbuf) ? OwnBytes(recvcounts, comm, recvtype)
                                                : Bytes(sendcount, sendtype);
    c.Collective(comm, root, send, me ? SumBytes(recvcounts, comm, recvtype) : -1))

GSYS_MPI_COLLECTIVE(Scatter, Iscatter,
                    (const void* sendbuf, int sendcount, Handle sendtype, void* recvbuf,
                     int recvcount, Handle recvtype, int root, Handle comm),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
                    const bool me = IsRoot(comm, root);
                    const int64_t recv = me && InPlace(recvbuf) ? Bytes(sendcount, sendtype)
                                                                : Bytes(recvcount, recvtype);
                    c.Collective(comm, root,
                                 me ? Bytes(int64_t{sendcount} * CommSize(comm), sendtype) : -1,
                                 recv))

GSYS_MPI_COLLECTIVE(Scatterv, Iscatterv,
                    (const void* sendbuf, const int* sendcounts, const int* displs, Handle sendtype,
                     void* recvbuf, int recvcount, Handle recvtype, int root, Handle comm),
                    (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                     comm),
                    const bool me = IsRoot(comm, root);
                    const int64_t recv = me && InPlace(recvbuf)
                                             ? OwnBytes(sendcounts, comm, sendtype)
                                             : Bytes(recvcount, recvtype);
                    c.Collective(comm, root, me ? SumBytes(sendcounts, comm, sendtype) : -1, recv))

GSYS_MPI_COLLECTIVE(Alltoall, Ialltoall,
                    (const void* sendbuf, int sendcount, Handle sendtype, void* recvbuf,
                     int recvcount, Handle recvtype, Handle comm),
                    (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                    const int64_t n = CommSize(comm);
                    const int64_t recv = Bytes(recvcount * n, recvtype);
                    c.Collective(comm, kMpiNone,
                                 InPlace(sendbuf) ? recv : Bytes(sendcount* n, sendtype), recv))

GSYS_MPI_COLLECTIVE(
    Alltoallv, Ialltoallv,
    (const void* sendbuf, const int* sendcounts, const int* sdispls, Handle sendtype, void* recvbuf,
     const int* recvcounts, const int* rdispls, Handle recvtype, Handle comm),
    (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
    const int64_t recv = SumBytes(recvcounts, comm, recvtype);
    c.Collective(comm, kMpiNone, InPlace(sendbuf) ? recv : SumBytes(sendcounts, comm, sendtype),
                 recv))

GSYS_MPI_COLLECTIVE(Reduce_scatter, Ireduce_scatter,
                    (const void* sendbuf, void* recvbuf, const int* recvcounts, Handle type,
                     Handle op, Handle comm),
                    (sendbuf, recvbuf, recvcounts, type, op, comm),
                    c.Collective(comm, kMpiNone, SumBytes(recvcounts, comm, type),
                                 OwnBytes(recvcounts, comm, type)))

GSYS_MPI_COLLECTIVE(Reduce_scatter_block, Ireduce_scatter_block,
                    (const void* sendbuf, void* recvbuf, int recvcount, Handle type, Handle op,
                     Handle comm),
                    (sendbuf, recvbuf, recvcount, type, op, comm),
                    c.Collective(comm, kMpiNone, Bytes(int64_t{recvcount} * CommSize(comm), type),
                                 Bytes(recvcount, type)))

GSYS_MPI_COLLECTIVE(Scan, Iscan,
                    (const void* sendbuf, void* recvbuf, int count, Handle type, Handle op,
                     Handle comm),
                    (sendbuf, recvbuf, count, type, op, comm), const int64_t b = Bytes(count, type);
                    c.Collective(comm, kMpiNone, b, b))

GSYS_MPI_COLLECTIVE(Exscan, Iexscan,
                    (const void* sendbuf, void* recvbuf, int count, Handle type, Handle op,
                     Handle comm),
                    (sendbuf, recvbuf, count, type, op, comm), const int64_t b = Bytes(count, type);
                    c.Collective(comm, kMpiNone, b, b))
