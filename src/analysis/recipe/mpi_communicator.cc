// SPDX-License-Identifier: Apache-2.0
// Open MPI through dlopen: gsys links no MPI library, so the same binary runs on machines
// without MPI and uses the cluster's Open MPI when started by mpirun with --mode mpi.
//
// Open MPI's handles are addresses of exported globals (MPI_COMM_WORLD is &ompi_mpi_comm_world,
// MPI_BYTE is &ompi_mpi_byte), so dlsym gives them; MPI_STATUS_IGNORE is a null pointer. Blobs
// travel as an 8-byte length then the bytes, in pieces below INT_MAX.
#include <dlfcn.h>

#include <climits>
#include <cstring>

#include "analysis/recipe/communicator.h"

namespace gsys::analysis::recipe {
namespace {

using InitializedFn = int (*)(int*);
using InitFn = int (*)(int*, char***);
using FinalizeFn = int (*)();
using CommIntFn = int (*)(void*, int*);
using SendFn = int (*)(const void*, int, void*, int, int, void*);
using RecvFn = int (*)(void*, int, void*, int, int, void*, void*);
using BcastFn = int (*)(void*, int, void*, int, void*);

constexpr int kTag = 4242;
constexpr size_t kPiece = 1 << 30;

class MpiCommunicator : public Communicator {
 public:
  ~MpiCommunicator() override {
    if (finalize_ && initialized_here_) finalize_();
    // The library stays loaded: Open MPI registers atexit handlers.
  }

  Status Load() {
    for (const char* name : {"libmpi.so.40", "libmpi.so", "libmpi.so.12"}) {
      lib_ = ::dlopen(name, RTLD_NOW | RTLD_GLOBAL);
      if (lib_) break;
    }
    if (!lib_) {
      return Error(StatusCode::kUnsupported,
                   "recipe: --mode mpi needs Open MPI (libmpi.so.40 not found; install "
                   "openmpi-bin, or run without --mode mpi)");
    }
    world_ = ::dlsym(lib_, "ompi_mpi_comm_world");
    byte_ = ::dlsym(lib_, "ompi_mpi_byte");
    auto initialized = reinterpret_cast<InitializedFn>(::dlsym(lib_, "MPI_Initialized"));
    auto init = reinterpret_cast<InitFn>(::dlsym(lib_, "MPI_Init"));
    finalize_ = reinterpret_cast<FinalizeFn>(::dlsym(lib_, "MPI_Finalize"));
    auto comm_rank = reinterpret_cast<CommIntFn>(::dlsym(lib_, "MPI_Comm_rank"));
    auto comm_size = reinterpret_cast<CommIntFn>(::dlsym(lib_, "MPI_Comm_size"));
    send_ = reinterpret_cast<SendFn>(::dlsym(lib_, "MPI_Send"));
    recv_ = reinterpret_cast<RecvFn>(::dlsym(lib_, "MPI_Recv"));
    bcast_ = reinterpret_cast<BcastFn>(::dlsym(lib_, "MPI_Bcast"));
    if (!world_ || !byte_ || !initialized || !init || !finalize_ || !comm_rank || !comm_size ||
        !send_ || !recv_ || !bcast_) {
      return Error(StatusCode::kUnsupported,
                   "recipe: the MPI library found is not Open MPI (gsys supports Open MPI)");
    }
    int flag = 0;
    initialized(&flag);
    if (!flag) {
      if (init(nullptr, nullptr) != 0) {
        return Error(StatusCode::kUnsupported, "recipe: MPI_Init failed");
      }
      initialized_here_ = true;
    }
    if (comm_rank(world_, &rank_) != 0 || comm_size(world_, &size_) != 0) {
      return Error(StatusCode::kInternal, "recipe: MPI_Comm_rank/size failed");
    }
    return OkStatus();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  Result<std::vector<std::string>> Gather(const std::string& blob) override {
    std::vector<std::string> all;
    if (rank_ != 0) {
      GSYS_RETURN_IF_ERROR(Send(blob, 0));
      return all;
    }
    all.resize(static_cast<size_t>(size_));
    all[0] = blob;
    for (int p = 1; p < size_; ++p) {
      GSYS_ASSIGN_OR_RETURN(all[static_cast<size_t>(p)], Recv(p));
    }
    return all;
  }

  Result<std::string> Broadcast(const std::string& blob) override {
    int64_t size = static_cast<int64_t>(blob.size());
    if (bcast_(&size, 8, byte_, 0, world_) != 0) return Failed("MPI_Bcast");
    std::string data = rank_ == 0 ? blob : std::string(static_cast<size_t>(size), '\0');
    for (size_t off = 0; off < data.size(); off += kPiece) {
      int n = static_cast<int>(std::min(kPiece, data.size() - off));
      if (bcast_(data.data() + off, n, byte_, 0, world_) != 0) return Failed("MPI_Bcast");
    }
    return data;
  }

  Status SendTo(int to, const std::string& blob) override { return Send(blob, to); }
  Result<std::string> RecvFrom(int from) override { return Recv(from); }

 private:
  static Status Failed(const char* what) {
    return Error(StatusCode::kInternal, std::string("recipe: ") + what + " failed");
  }

  Status Send(const std::string& blob, int to) {
    int64_t size = static_cast<int64_t>(blob.size());
    if (send_(&size, 8, byte_, to, kTag, world_) != 0) return Failed("MPI_Send");
    for (size_t off = 0; off < blob.size(); off += kPiece) {
      int n = static_cast<int>(std::min(kPiece, blob.size() - off));
      if (send_(blob.data() + off, n, byte_, to, kTag, world_) != 0) return Failed("MPI_Send");
    }
    return OkStatus();
  }

  Result<std::string> Recv(int from) {
    int64_t size = 0;
    if (recv_(&size, 8, byte_, from, kTag, world_, nullptr) != 0) return Failed("MPI_Recv");
    std::string data(static_cast<size_t>(size), '\0');
    for (size_t off = 0; off < data.size(); off += kPiece) {
      int n = static_cast<int>(std::min(kPiece, data.size() - off));
      if (recv_(data.data() + off, n, byte_, from, kTag, world_, nullptr) != 0) {
        return Failed("MPI_Recv");
      }
    }
    return data;
  }

  void* lib_ = nullptr;
  void* world_ = nullptr;
  void* byte_ = nullptr;
  FinalizeFn finalize_ = nullptr;
  SendFn send_ = nullptr;
  RecvFn recv_ = nullptr;
  BcastFn bcast_ = nullptr;
  bool initialized_here_ = false;
  int rank_ = 0, size_ = 1;
};

}  // namespace

Result<std::unique_ptr<Communicator>> OpenMpiCommunicator() {
  auto comm = std::make_unique<MpiCommunicator>();
  GSYS_RETURN_IF_ERROR(comm->Load());
  return std::unique_ptr<Communicator>(std::move(comm));
}

}  // namespace gsys::analysis::recipe
