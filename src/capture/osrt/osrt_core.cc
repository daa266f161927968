// SPDX-License-Identifier: Apache-2.0
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <new>

#include "capture/capture_domain.h"
#include "capture/entry/context.h"
#include "capture/osrt/osrt.h"
#include "format/capture_env_names.h"

extern char** environ;

namespace gsys::capture {

std::atomic<bool> g_osrt_on{false};
int64_t g_osrt_threshold_ns = 1000;

void* ResolveReal(std::atomic<void*>* slot, const char* name) {
  ++t_thread.guard;
  void* p = dlsym(RTLD_NEXT, name);
  --t_thread.guard;
  slot->store(p, std::memory_order_relaxed);
  return p;
}

namespace {

bool HasVar(char* const* envp, const char* name, size_t len) {
  for (char* const* e = envp; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, name, len) == 0 && (*e)[len] == '=') return true;
  }
  return false;
}

const char* FindVar(char* const* envp, const char* name) {
  size_t len = std::strlen(name);
  for (char* const* e = envp; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, name, len) == 0 && (*e)[len] == '=') return *e + len + 1;
  }
  return nullptr;
}

// The GSYS_* variables (and CUDA_INJECTION64_PATH) as they were at library init, for an exec
// from a process that cleared its environment (clearenv(), environ = nullptr): without them
// the new image would not know its session. Static storage: no allocation at init.
constexpr size_t kSnapshotBytes = 16384;
constexpr size_t kSnapshotVars = 64;
char g_snapshot_text[kSnapshotBytes];
const char* g_snapshot[kSnapshotVars + 1];

void SnapshotCaptureEnv() {
  size_t used = 0, n = 0;
  for (char** e = environ; e != nullptr && *e != nullptr && n < kSnapshotVars; ++e) {
    if (std::strncmp(*e, "GSYS_", 5) != 0 && std::strncmp(*e, "CUDA_INJECTION64_PATH=", 22) != 0) {
      continue;
    }
    size_t len = std::strlen(*e) + 1;
    if (used + len > kSnapshotBytes) break;
    std::memcpy(g_snapshot_text + used, *e, len);
    g_snapshot[n++] = g_snapshot_text + used;
    used += len;
  }
  g_snapshot[n] = nullptr;
}

}  // namespace

const char* CaptureEnvSnapshot(const char* name) {
  size_t len = std::strlen(name);
  for (const char* const* e = g_snapshot; *e != nullptr; ++e) {
    if (std::strncmp(*e, name, len) == 0 && (*e)[len] == '=') return *e + len + 1;
  }
  return nullptr;
}

char* const* OsrtPrepareExec(char* const* envp, bool flush) {
  Context& ctx = CaptureContext();
  if (!ctx.active) return envp;
  // Flush in the process itself (not in a vfork child sharing its memory).
  if (flush && static_cast<uint32_t>(syscall(SYS_getpid)) == SinkPid()) FinalFlush();
  const char* lib = ctx.config.inject_path;
  if (lib[0] == '\0') return envp;
  const char* preload = FindVar(envp, "LD_PRELOAD");
  bool has_session = HasVar(envp, format::kEnvSessionDir, std::strlen(format::kEnvSessionDir));
  bool has_preload = preload != nullptr && std::strstr(preload, lib) != nullptr;
  bool has_nvtx = HasVar(envp, "NVTX_INJECTION64_PATH", 21);
  if (has_session && has_preload && has_nvtx) return envp;
  // Rebuild: the caller's variables, minus the ones we set, plus ours. mmap, not malloc: this
  // may run in a vfork child.
  size_t count = 0, bytes = 0;
  for (char* const* e = envp; e != nullptr && *e != nullptr; ++e, ++count)
    bytes += std::strlen(*e) + 1;
  for (const char* const* e = g_snapshot; *e != nullptr; ++e, ++count) bytes += std::strlen(*e) + 1;
  bytes += 2 * std::strlen(lib) + (preload ? std::strlen(preload) : 0) + 128;
  size_t total = (count + 4) * sizeof(char*) + bytes;
  void* mem = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return envp;
  char** out = static_cast<char**>(mem);
  char* text = reinterpret_cast<char*>(out + count + 4);
  size_t n = 0;
  auto add = [&](const char* a, const char* b, const char* c) {
    out[n++] = text;
    for (const char* s : {a, b, c}) {
      if (s == nullptr) continue;
      size_t l = std::strlen(s);
      std::memcpy(text, s, l);
      text += l;
    }
    *text++ = '\0';
  };
  for (char* const* e = envp; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, "LD_PRELOAD=", 11) == 0 ||
        std::strncmp(*e, "NVTX_INJECTION64_PATH=", 22) == 0)
      continue;
    if (!has_session && std::strncmp(*e, "GSYS_", 5) == 0) continue;
    add(*e, nullptr, nullptr);
  }
  if (!has_session) {
    // The settings this process was started with, not its (maybe cleared) current environ.
    for (const char* const* e = g_snapshot; *e != nullptr; ++e) {
      if (std::strncmp(*e, "CUDA_INJECTION64_PATH=", 22) == 0 &&
          HasVar(envp, "CUDA_INJECTION64_PATH", 21)) {
        continue;
      }
      add(*e, nullptr, nullptr);
    }
  }
  if (has_preload) {
    add("LD_PRELOAD=", preload, nullptr);
  } else if (preload != nullptr && preload[0] != '\0') {
    out[n++] = text;
    text += 1 + std::strlen(std::strcat(
                    std::strcat(std::strcat(std::strcpy(text, "LD_PRELOAD="), lib), ":"), preload));
  } else {
    add("LD_PRELOAD=", lib, nullptr);
  }
  add("NVTX_INJECTION64_PATH=", has_nvtx ? FindVar(envp, "NVTX_INJECTION64_PATH") : lib, nullptr);
  out[n] = nullptr;
  return out;
}

namespace {

class OsrtDomain final : public CaptureDomain {
 public:
  const char* Name() const override { return "osrt"; }
  bool Enabled(const CaptureConfig&) const override { return true; }  // exec/exit hooks always
  void Start(const CaptureConfig& c) override {
    SnapshotCaptureEnv();
    g_osrt_threshold_ns = c.osrt_threshold_ns;
    g_osrt_on.store(c.trace_osrt, std::memory_order_release);
  }
};

}  // namespace

CaptureDomain* OsrtCaptureDomain() {
  alignas(OsrtDomain) static unsigned char storage[sizeof(OsrtDomain)];
  static CaptureDomain* domain = new (storage) OsrtDomain();
  return domain;
}

}  // namespace gsys::capture
