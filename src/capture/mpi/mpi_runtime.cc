// SPDX-License-Identifier: Apache-2.0
#include "capture/mpi/mpi_runtime.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>

#include <atomic>
#include <cstring>

#include "capture/sink/external_sink.h"

namespace gsys::capture::mpi {
namespace {

constexpr uint32_t kCount = static_cast<uint32_t>(Fn::kCount);

const char* const kNames[] = {
#define GSYS_MPI_NAME(name, category) "MPI_" #name,
    GSYS_MPI_FUNCTIONS(GSYS_MPI_NAME)
#undef GSYS_MPI_NAME
};
const format::MpiCategory kCategories[] = {
#define GSYS_MPI_CATEGORY(name, category) format::MpiCategory::category,
    GSYS_MPI_FUNCTIONS(GSYS_MPI_CATEGORY)
#undef GSYS_MPI_CATEGORY
};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == kCount);

// What the first MPI call learned about the process. Written once under g_once.
struct State {
  const GsysSinkApi* api = nullptr;  // null: gsys absent or -t mpi off; calls only forward
  bool open_mpi = false;             // handles are pointers (else MPICH-style 32-bit ints)
  Handle comm_world = 0;
  const void* in_place = nullptr;
  int (*type_size)(Handle, int*) = nullptr;
  int (*comm_size)(Handle, int*) = nullptr;
  int (*comm_rank)(Handle, int*) = nullptr;
};
State g_state;
pthread_once_t g_once = PTHREAD_ONCE_INIT;
std::atomic<void*> g_real[kCount];
std::atomic<uint8_t> g_named[kCount];
__thread int t_depth __attribute__((tls_model("initial-exec")));

// The loaded MPI library when it is not in the global scope: the application reached it
// through a library it dlopened with RTLD_LOCAL (a Python extension linked to libmpi), so
// relocations in that library bind to our MPI_* but dlsym(RTLD_NEXT/RTLD_DEFAULT) cannot see
// PMPI_*. Found once by asking every loaded object (RTLD_NOLOAD handles) for PMPI_Init.
std::atomic<void*> g_local_mpi{nullptr};

struct ObjectNames {
  static constexpr int kMax = 512;
  const char* names[kMax];
  int count = 0;
};

int CollectName(dl_phdr_info* info, size_t, void* data) {
  auto* o = static_cast<ObjectNames*>(data);
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' && o->count < ObjectNames::kMax) {
    o->names[o->count++] = info->dlpi_name;  // link-map strings live while the object is loaded
  }
  return 0;
}

void* LocalMpiLibrary() {
  void* h = g_local_mpi.load(std::memory_order_acquire);
  if (h != nullptr) return h;
  static ObjectNames objects;  // only touched here; a race re-collects the same names
  objects.count = 0;
  dl_iterate_phdr(CollectName, &objects);  // dlopen is not called under its lock
  for (int i = 0; i < objects.count && h == nullptr; ++i) {
    void* lib = dlopen(objects.names[i], RTLD_LAZY | RTLD_NOLOAD);
    if (lib == nullptr) continue;
    if (dlsym(lib, "PMPI_Init") != nullptr) {
      h = lib;  // kept open: libmpi is not unloaded while the process uses MPI
    } else {
      dlclose(lib);
    }
  }
  if (h != nullptr) g_local_mpi.store(h, std::memory_order_release);
  return h;
}

// PMPI_<name without MPI_>: the next definition after this library, else any one in the global
// scope, else the MPI library loaded locally (LocalMpiLibrary).
void* Lookup(const char* mpi_name) {
  char name[64] = "P";
  std::strncat(name, mpi_name, sizeof(name) - 2);
  void* p = dlsym(RTLD_NEXT, name);
  if (p == nullptr) p = dlsym(RTLD_DEFAULT, name);
  if (p == nullptr) {
    if (void* lib = LocalMpiLibrary()) p = dlsym(lib, name);
  }
  return p;
}

// Open MPI defines MPI_COMM_WORLD as the address of ompi_mpi_comm_world in libmpi.
void* OpenMpiCommWorld(void* any_pmpi_function) {
  void* p = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
  if (p != nullptr || any_pmpi_function == nullptr) return p;
  Dl_info info;
  if (dladdr(any_pmpi_function, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  void* lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (lib == nullptr) return nullptr;
  p = dlsym(lib, "ompi_mpi_comm_world");
  dlclose(lib);
  return p;
}

void ResetNamesInChild() {
  for (auto& n : g_named) n.store(0, std::memory_order_relaxed);
}

void InitState() {
  State& s = g_state;
  s.type_size = reinterpret_cast<int (*)(Handle, int*)>(Lookup("MPI_Type_size"));
  s.comm_size = reinterpret_cast<int (*)(Handle, int*)>(Lookup("MPI_Comm_size"));
  s.comm_rank = reinterpret_cast<int (*)(Handle, int*)>(Lookup("MPI_Comm_rank"));
  if (void* world = OpenMpiCommWorld(reinterpret_cast<void*>(s.comm_rank))) {
    s.open_mpi = true;
    s.comm_world = reinterpret_cast<Handle>(world);
    s.in_place = reinterpret_cast<const void*>(1);
  } else {  // MPICH and its ABI family (Intel MPI, MVAPICH, Cray MPICH)
    s.comm_world = 0x44000000;
    s.in_place = reinterpret_cast<const void*>(-1);
  }
  auto api = reinterpret_cast<GsysSinkApiFn>(dlsym(RTLD_DEFAULT, "gsys_capture_sink_api"));
  if (api == nullptr || s.type_size == nullptr || s.comm_size == nullptr ||
      s.comm_rank == nullptr) {
    return;
  }
  s.api = api(kGsysSinkApiVersion, kGsysSinkApiTraceMpi);
  if (s.api != nullptr) pthread_atfork(nullptr, nullptr, ResetNamesInChild);
}

const State& EnsureState() {
  pthread_once(&g_once, InitState);
  return g_state;
}

uint64_t HandleValue(Handle h) {
  return g_state.open_mpi ? static_cast<uint64_t>(h) : static_cast<uint32_t>(h);
}

void EmitName(uint32_t id) {
  if (g_named[id].exchange(1, std::memory_order_relaxed) != 0) return;
  const char* name = kNames[id];
  format::LibApiNameBody b{id, static_cast<uint16_t>(format::LibApiLibrary::kMpi),
                           static_cast<uint16_t>(std::strlen(name))};
  g_state.api->emit(static_cast<uint16_t>(format::kLibApiName), &b, sizeof(b), name, b.text_len);
}

}  // namespace

void* Real(Fn fn) {
  const uint32_t i = static_cast<uint32_t>(fn);
  void* p = g_real[i].load(std::memory_order_acquire);
  if (p == nullptr) {
    p = Lookup(kNames[i]);
    g_real[i].store(p, std::memory_order_release);
  }
  return p;
}

int NoRealFunction(Fn) { return 16; }  // MPI_ERR_OTHER in Open MPI; an error code in MPICH too

int64_t Bytes(int64_t count, Handle type) {
  if (count < 0) return -1;
  if (count == 0) return 0;
  int size = 0;
  if (g_state.type_size == nullptr || g_state.type_size(type, &size) != 0) return -1;
  return count * size;
}

int CommSize(Handle comm) {
  int n = 0;
  return g_state.comm_size != nullptr && g_state.comm_size(comm, &n) == 0 ? n : 0;
}

int CommRank(Handle comm) {
  int r = -1;
  return g_state.comm_rank != nullptr && g_state.comm_rank(comm, &r) == 0 ? r : -1;
}

int64_t SumBytes(const int* counts, Handle comm, Handle type) {
  if (counts == nullptr) return -1;
  int64_t sum = 0;
  for (int i = 0, n = CommSize(comm); i < n; ++i) sum += counts[i];
  return Bytes(sum, type);
}

int64_t OwnBytes(const int* counts, Handle comm, Handle type) {
  const int rank = CommRank(comm);
  return counts != nullptr && rank >= 0 ? Bytes(counts[rank], type) : -1;
}

bool InPlace(const void* buf) { return buf == g_state.in_place; }

uint64_t RequestAt(const void* requests, int i) {
  if (requests == nullptr || i < 0) return 0;
  if (g_state.open_mpi) return static_cast<const uint64_t*>(requests)[i];
  return static_cast<const uint32_t*>(requests)[i];
}

Call::Call(Fn fn) : on_(false), body_{} {
  if (t_depth++ != 0) return;
  const State& s = EnsureState();
  if (s.api == nullptr || s.api->recording() == 0) return;
  on_ = true;
  body_.function = static_cast<uint32_t>(fn);
  body_.category = static_cast<uint16_t>(kCategories[body_.function]);
  body_.size = -1;
  body_.recv_size = -1;
  body_.tag = format::kMpiNone;
  body_.peer = format::kMpiNone;
  body_.root = format::kMpiNone;
}

Call::~Call() { --t_depth; }

void Call::P2p(Handle comm, int peer, int tag, int64_t bytes) {
  body_.comm = HandleValue(comm);
  body_.peer = peer;
  body_.tag = tag;
  body_.size = bytes;
}

void Call::Collective(Handle comm, int root, int64_t send_bytes, int64_t recv_bytes) {
  body_.comm = HandleValue(comm);
  body_.root = root;
  body_.size = send_bytes;
  body_.recv_size = recv_bytes;
}

void Call::Begin() {
  if (on_) body_.start = g_state.api->now();
}

void Call::End() {
  if (!on_) return;
  body_.end = g_state.api->now();
  EmitName(body_.function);
  g_state.api->emit(static_cast<uint16_t>(format::kMpiCall), &body_, sizeof(body_), nullptr, 0);
}

void RecordRank() {
  const State& s = EnsureState();
  if (s.api == nullptr) return;
  format::MpiRankBody b{s.api->now(), CommRank(s.comm_world), CommSize(s.comm_world)};
  s.api->emit(static_cast<uint16_t>(format::kMpiRank), &b, sizeof(b), nullptr, 0);
}

}  // namespace gsys::capture::mpi
