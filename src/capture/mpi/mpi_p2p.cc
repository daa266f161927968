// SPDX-License-Identifier: Apache-2.0
// Point-to-point (MPI_P2P_EVENTS) and start/wait/test (MPI_START_WAIT_EVENTS) wrappers.
// Peers and tags are recorded as passed (MPI_ANY_SOURCE/MPI_ANY_TAG stay as the
// implementation's constants); sizes are count × PMPI_Type_size. MPI_Sendrecv and
// MPI_Sendrecv_replace are one row: the destination, send tag and send bytes.
#include "capture/mpi/mpi_wrap.h"

using gsys::capture::mpi::Bytes;
using gsys::capture::mpi::Call;
using gsys::capture::mpi::Fn;
using gsys::capture::mpi::Handle;
using gsys::capture::mpi::NoRealFunction;
using gsys::capture::mpi::RequestAt;
using gsys::capture::mpi::Run;
using gsys::capture::mpi::RunRequest;
using gsys::capture::mpi::Status;

#define GSYS_MPI_BLOCKING_SEND(name)                                                         \
  GSYS_MPI_EXPORT int MPI_##name(const void* buf, int count, Handle type, int dest, int tag, \
                                 Handle comm) {                                              \
    GSYS_MPI_ENTER(name);                                                                    \
    if (c.on()) c.P2p(comm, dest, tag, Bytes(count, type));                                  \
    return Run(c, real, buf, count, type, dest, tag, comm);                                  \
  }
GSYS_MPI_BLOCKING_SEND(Send)
GSYS_MPI_BLOCKING_SEND(Bsend)
GSYS_MPI_BLOCKING_SEND(Ssend)
GSYS_MPI_BLOCKING_SEND(Rsend)

#define GSYS_MPI_NONBLOCKING_SEND(name)                                                      \
  GSYS_MPI_EXPORT int MPI_##name(const void* buf, int count, Handle type, int dest, int tag, \
                                 Handle comm, Handle* request) {                             \
    GSYS_MPI_ENTER(name);                                                                    \
    if (c.on()) c.P2p(comm, dest, tag, Bytes(count, type));                                  \
    return RunRequest(c, request, real, buf, count, type, dest, tag, comm, request);         \
  }
GSYS_MPI_NONBLOCKING_SEND(Isend)
GSYS_MPI_NONBLOCKING_SEND(Ibsend)
GSYS_MPI_NONBLOCKING_SEND(Issend)
GSYS_MPI_NONBLOCKING_SEND(Irsend)
GSYS_MPI_NONBLOCKING_SEND(Send_init)

GSYS_MPI_EXPORT int MPI_Recv(void* buf, int count, Handle type, int source, int tag, Handle comm,
                             Status* status) {
  GSYS_MPI_ENTER(Recv);
  if (c.on()) c.P2p(comm, source, tag, Bytes(count, type));
  return Run(c, real, buf, count, type, source, tag, comm, status);
}

#define GSYS_MPI_NONBLOCKING_RECV(name)                                                  \
  GSYS_MPI_EXPORT int MPI_##name(void* buf, int count, Handle type, int source, int tag, \
                                 Handle comm, Handle* request) {                         \
    GSYS_MPI_ENTER(name);                                                                \
    if (c.on()) c.P2p(comm, source, tag, Bytes(count, type));                            \
    return RunRequest(c, request, real, buf, count, type, source, tag, comm, request);   \
  }
GSYS_MPI_NONBLOCKING_RECV(Irecv)
GSYS_MPI_NONBLOCKING_RECV(Recv_init)

GSYS_MPI_EXPORT int MPI_Sendrecv(const void* sendbuf, int sendcount, Handle sendtype, int dest,
                                 int sendtag, void* recvbuf, int recvcount, Handle recvtype,
                                 int source, int recvtag, Handle comm, Status* status) {
  GSYS_MPI_ENTER(Sendrecv);
  if (c.on()) c.P2p(comm, dest, sendtag, Bytes(sendcount, sendtype));
  return Run(c, real, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
             source, recvtag, comm, status);
}

GSYS_MPI_EXPORT int MPI_Sendrecv_replace(void* buf, int count, Handle type, int dest, int sendtag,
                                         int source, int recvtag, Handle comm, Status* status) {
  GSYS_MPI_ENTER(Sendrecv_replace);
  if (c.on()) c.P2p(comm, dest, sendtag, Bytes(count, type));
  return Run(c, real, buf, count, type, dest, sendtag, source, recvtag, comm, status);
}

GSYS_MPI_EXPORT int MPI_Probe(int source, int tag, Handle comm, Status* status) {
  GSYS_MPI_ENTER(Probe);
  if (c.on()) c.P2p(comm, source, tag, -1);
  return Run(c, real, source, tag, comm, status);
}

GSYS_MPI_EXPORT int MPI_Iprobe(int source, int tag, Handle comm, int* flag, Status* status) {
  GSYS_MPI_ENTER(Iprobe);
  if (c.on()) c.P2p(comm, source, tag, -1);
  return Run(c, real, source, tag, comm, flag, status);
}

// Start/wait/test: the (first) request is read before the call, which may free it.
GSYS_MPI_EXPORT int MPI_Start(Handle* request) {
  GSYS_MPI_ENTER(Start);
  if (c.on()) c.Request(RequestAt(request, 0));
  return Run(c, real, request);
}

GSYS_MPI_EXPORT int MPI_Startall(int count, Handle* requests) {
  GSYS_MPI_ENTER(Startall);
  if (c.on() && count > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, count, requests);
}

GSYS_MPI_EXPORT int MPI_Wait(Handle* request, Status* status) {
  GSYS_MPI_ENTER(Wait);
  if (c.on()) c.Request(RequestAt(request, 0));
  return Run(c, real, request, status);
}

GSYS_MPI_EXPORT int MPI_Waitall(int count, Handle* requests, Status* statuses) {
  GSYS_MPI_ENTER(Waitall);
  if (c.on() && count > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, count, requests, statuses);
}

GSYS_MPI_EXPORT int MPI_Waitany(int count, Handle* requests, int* index, Status* status) {
  GSYS_MPI_ENTER(Waitany);
  if (c.on() && count > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, count, requests, index, status);
}

GSYS_MPI_EXPORT int MPI_Waitsome(int incount, Handle* requests, int* outcount, int* indices,
                                 Status* statuses) {
  GSYS_MPI_ENTER(Waitsome);
  if (c.on() && incount > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, incount, requests, outcount, indices, statuses);
}

GSYS_MPI_EXPORT int MPI_Test(Handle* request, int* flag, Status* status) {
  GSYS_MPI_ENTER(Test);
  if (c.on()) c.Request(RequestAt(request, 0));
  return Run(c, real, request, flag, status);
}

GSYS_MPI_EXPORT int MPI_Testall(int count, Handle* requests, int* flag, Status* statuses) {
  GSYS_MPI_ENTER(Testall);
  if (c.on() && count > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, count, requests, flag, statuses);
}

GSYS_MPI_EXPORT int MPI_Testany(int count, Handle* requests, int* index, int* flag,
                                Status* status) {
  GSYS_MPI_ENTER(Testany);
  if (c.on() && count > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, count, requests, index, flag, status);
}

GSYS_MPI_EXPORT int MPI_Testsome(int incount, Handle* requests, int* outcount, int* indices,
                                 Status* statuses) {
  GSYS_MPI_ENTER(Testsome);
  if (c.on() && incount > 0) c.Request(RequestAt(requests, 0));
  return Run(c, real, incount, requests, outcount, indices, statuses);
}
