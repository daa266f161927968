// SPDX-License-Identifier: Apache-2.0
// libgsys-mpi.so's runtime (-t mpi): the real PMPI_* entry points, what differs between MPI
// implementations, and the record path into libgsys-inject.so's sink (sink/external_sink.h).
//
// No MPI header is used at build time. MPI handles (MPI_Comm, MPI_Datatype, MPI_Op,
// MPI_Request) are pointers in Open MPI and ints in MPICH (and its ABI family); the wrappers
// take them as one register-sized `Handle` and pass them through unchanged, which both
// x86-64 and AArch64 calling conventions allow. Only where a handle is read from memory
// (request arrays) or a constant is needed (MPI_COMM_WORLD, MPI_IN_PLACE) does the detected
// implementation matter.
//
// Threading: wrappers run on any thread. Resolution happens once (pthread_once); the per-call
// path is lock-free and allocation-free. A thread-local depth keeps nested MPI calls (an MPI
// library calling its own MPI_* entry points) from being recorded twice.
#pragma once

#include <cstdint>

#include "capture/mpi/mpi_functions.h"
#include "format/libapi_records.h"

namespace gsys::capture::mpi {

using Handle = intptr_t;

enum class Fn : uint32_t {
#define GSYS_MPI_ENUM(name, category) k##name,
  GSYS_MPI_FUNCTIONS(GSYS_MPI_ENUM)
#undef GSYS_MPI_ENUM
      kCount
};

// PMPI_<name> of `fn`, or null when the process has no MPI library exporting it.
void* Real(Fn fn);

// MPI_ERR_OTHER (returned when the real function cannot be found).
int NoRealFunction(Fn fn);

// Bytes of `count` elements of `type` (PMPI_Type_size); -1 when count < 0.
int64_t Bytes(int64_t count, Handle type);
// Sum of `counts[0..n)` (n = size of `comm`'s group), times the size of `type`.
int64_t SumBytes(const int* counts, Handle comm, Handle type);
// Bytes of `counts[rank]` elements of `type`, rank being this process's in `comm`; -1 when
// unknown.
int64_t OwnBytes(const int* counts, Handle comm, Handle type);
int CommSize(Handle comm);
int CommRank(Handle comm);
bool InPlace(const void* buf);
// The i-th request of an MPI_Request array, as an integer.
uint64_t RequestAt(const void* requests, int i);

// One call being recorded. The constructor decides whether it is (trace on, recording, not
// nested); setters fill the record; Begin/End take the timestamps and End emits.
class Call {
 public:
  explicit Call(Fn fn);
  ~Call();
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  bool on() const { return on_; }
  void P2p(Handle comm, int peer, int tag, int64_t bytes);
  void Collective(Handle comm, int root, int64_t send_bytes, int64_t recv_bytes);
  void Request(uint64_t request) { body_.request = request; }
  void Begin();
  void End();

 private:
  bool on_;
  format::MpiCallBody body_;
};

// After a successful MPI_Init/MPI_Init_thread: records this process's rank in MPI_COMM_WORLD.
void RecordRank();

}  // namespace gsys::capture::mpi

// Fetches PMPI_<name> typed as the wrapper MPI_<name> itself.
#define GSYS_MPI_REAL(name)                  \
  reinterpret_cast<decltype(&::MPI_##name)>( \
      ::gsys::capture::mpi::Real(::gsys::capture::mpi::Fn::k##name))
