// SPDX-License-Identifier: Apache-2.0
// Library API call records (RecordKind 96..111): cuBLAS/cuBLASLt and cuDNN calls intercepted
// by capture/libapi, MPI calls by the PMPI library (capture/mpi). They travel in the process's
// CPU stream, so their timestamps are stream ticks like NVTX and OS-runtime records.
//
// Function ids are indexes into the capture library's generated table; they are not stable
// across builds, so a stream defines each id it uses with a kLibApiName record (first use per
// process). The record may follow the calls that use it (another thread's buffer can be
// drained first): the importer resolves names at the end of the stream.
#pragma once

#include <cstdint>

#include "format/record.h"

namespace gsys::format {

inline constexpr RecordKind kLibApiName = static_cast<RecordKind>(96);  // LibApiNameBody + name
inline constexpr RecordKind kLibApiCall = static_cast<RecordKind>(97);  // LibApiCallBody
inline constexpr RecordKind kMpiCall = static_cast<RecordKind>(98);     // MpiCallBody
inline constexpr RecordKind kMpiRank = static_cast<RecordKind>(99);     // MpiRankBody

// Which library a function belongs to (and so which report table its calls go to).
enum class LibApiLibrary : uint16_t { kCublas = 1, kCudnn = 2, kMpi = 3 };

struct LibApiNameBody {
  uint32_t function;  // id used by LibApiCallBody/MpiCallBody
  uint16_t library;   // LibApiLibrary
  uint16_t text_len;  // bytes of the function name after the body
};
static_assert(sizeof(LibApiNameBody) == 8);

struct LibApiCallBody {
  int64_t start;
  int64_t end;
  int64_t return_value;  // integral/enum results (cublasStatus_t, cudnnStatus_t, size_t), else 0
  uint32_t function;
  uint16_t library;  // LibApiLibrary
  uint16_t reserved;
};
static_assert(sizeof(LibApiCallBody) == 32);

// MpiCallBody::category: the nsys table the call belongs to.
enum class MpiCategory : uint16_t { kP2p = 1, kCollective = 2, kStartWait = 3, kOther = 4 };

inline constexpr int32_t kMpiNone = INT32_MIN;  // tag/peer/root not applicable

struct MpiCallBody {
  int64_t start;
  int64_t end;
  uint64_t comm;      // communicator handle (MPI_Comm as an integer)
  uint64_t request;   // request handle for nonblocking calls, else 0
  int64_t size;       // bytes sent (p2p, collective send side), -1 when not applicable
  int64_t recv_size;  // bytes received (collectives), -1 when not applicable
  int32_t tag;        // kMpiNone when not applicable
  int32_t peer;       // remote rank (p2p), kMpiNone when not applicable
  int32_t root;       // root rank (rooted collectives), kMpiNone when not applicable
  uint32_t function;  // id defined by a kLibApiName record (library kMpi)
  uint16_t category;  // MpiCategory
  uint16_t reserved[3];
};
static_assert(sizeof(MpiCallBody) == 72);

struct MpiRankBody {  // after MPI_Init: this process's rank in MPI_COMM_WORLD
  int64_t timestamp;
  int32_t rank;
  int32_t size;
};
static_assert(sizeof(MpiRankBody) == 16);

}  // namespace gsys::format
