// SPDX-License-Identifier: Apache-2.0
#include "capture/libapi/got_patcher.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "capture/libapi/libapi.h"

namespace gsys::capture::libapi {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kJumpSlot = R_X86_64_JUMP_SLOT;
constexpr uint32_t kGlobDat = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr uint32_t kJumpSlot = R_AARCH64_JUMP_SLOT;
constexpr uint32_t kGlobDat = R_AARCH64_GLOB_DAT;
#else
#error "libapi: GOT patching supports x86_64 and aarch64"
#endif

constexpr int kMaxObjects = 4096;

struct Object {
  uintptr_t base;
  const char* name;
  const ElfW(Phdr) * phdr;
  int phnum;
};

std::atomic_flag g_lock = ATOMIC_FLAG_INIT;
uintptr_t g_done[kMaxObjects];  // bases of objects already handled
int g_done_count = 0;
unsigned long long g_last_adds = 0, g_last_subs = 0;
Object g_objects[kMaxObjects];
int g_object_count = 0;
int g_patched = 0;
void* g_dlopen_hook = nullptr;
uintptr_t g_self_base = 0;

const char* BaseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

bool StartsWith(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// Objects whose imports are not patched: the traced libraries call each other internally.
bool IsTracedLibrary(const char* path) {
  const char* b = BaseName(path);
  return StartsWith(b, "libcublas") || StartsWith(b, "libcudnn");
}

// Objects that give the real entry points: the public libraries, not cuDNN's sub-libraries
// (which export implementation functions under the same names).
uint32_t ProvidedLibraries(const char* path) {
  const char* b = BaseName(path);
  if (StartsWith(b, "libcublas.so") || StartsWith(b, "libcublasLt.so")) {
    return 1u << static_cast<int>(LibApiLibrary::kCublas);
  }
  if (StartsWith(b, "libcudnn.so")) return 1u << static_cast<int>(LibApiLibrary::kCudnn);
  return 0;
}

bool Done(uintptr_t base) {
  for (int i = 0; i < g_done_count; ++i) {
    if (g_done[i] == base) return true;
  }
  return false;
}

int Collect(struct dl_phdr_info* info, size_t, void*) {
  g_last_adds = info->dlpi_adds;
  g_last_subs = info->dlpi_subs;
  if (g_object_count >= kMaxObjects) return 1;
  g_objects[g_object_count++] = {info->dlpi_addr, info->dlpi_name ? info->dlpi_name : "",
                                 info->dlpi_phdr, info->dlpi_phnum};
  return 0;
}

int ReadCounters(struct dl_phdr_info* info, size_t, void* out) {
  auto* v = static_cast<unsigned long long*>(out);
  v[0] = info->dlpi_adds;
  v[1] = info->dlpi_subs;
  return 1;  // the counters are the same in every entry
}

void ResolveReals(const Object& o, uint32_t libraries) {
  if (o.name[0] == '\0') return;
  void* handle = dlopen(o.name, RTLD_NOLOAD | RTLD_LAZY);
  if (handle == nullptr) return;
  for (uint32_t id = 0; id < kLibApiCount; ++id) {
    uint32_t bit = 1u << static_cast<int>(kLibApiNames[id].library);
    if ((libraries & bit) == 0 || g_real[id].load(std::memory_order_relaxed) != nullptr) continue;
    if (void* p = dlsym(handle, kLibApiNames[id].name))
      g_real[id].store(p, std::memory_order_release);
  }
  dlclose(handle);
}

// Writes `value` into the GOT slot at `slot`, lifting RELRO protection when needed.
void WriteSlot(uintptr_t slot, void* value, uintptr_t relro_begin, uintptr_t relro_end) {
  auto* p = reinterpret_cast<void**>(slot);
  if (__atomic_load_n(p, __ATOMIC_RELAXED) == value) return;
  bool relro = slot >= relro_begin && slot < relro_end;
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  auto* start = reinterpret_cast<void*>(slot & ~(page - 1));
  if (relro && mprotect(start, page, PROT_READ | PROT_WRITE) != 0) return;
  __atomic_store_n(p, value, __ATOMIC_RELEASE);
  if (relro) mprotect(start, page, PROT_READ);
  ++g_patched;
}

// The replacement for an imported symbol, or nullptr to leave the slot alone.
void* Replacement(const char* name) {
  if (name[0] == 'd')
    return g_dlopen_hook != nullptr && std::strcmp(name, "dlopen") == 0 ? g_dlopen_hook : nullptr;
  if (name[0] != 'c') return nullptr;
  int64_t id = FindFunction(name);
  if (id < 0) return nullptr;
  uint32_t bit = 1u << static_cast<int>(kLibApiNames[id].library);
  if ((g_traced_libraries & bit) == 0 || g_wrapper[id] == nullptr) return nullptr;
  if (g_real[id].load(std::memory_order_acquire) == nullptr) return nullptr;
  return g_wrapper[id];
}

void PatchObject(const Object& o) {
  const ElfW(Dyn)* dyn = nullptr;
  uintptr_t relro_begin = 0, relro_end = 0;
  for (int i = 0; i < o.phnum; ++i) {
    if (o.phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(o.base + o.phdr[i].p_vaddr);
    if (o.phdr[i].p_type == PT_GNU_RELRO) {
      relro_begin = o.base + o.phdr[i].p_vaddr;
      relro_end = relro_begin + o.phdr[i].p_memsz;
    }
  }
  if (dyn == nullptr) return;
  // Dynamic entries hold addresses once ld.so relocated them, offsets where it could not.
  auto addr = [&](ElfW(Addr) v) { return v < o.base ? v + o.base : v; };
  const ElfW(Sym)* symtab = nullptr;
  const char* strtab = nullptr;
  uintptr_t jmprel = 0, rela = 0;
  size_t jmprel_size = 0, rela_size = 0;
  bool plt_is_rela = true;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB:
        symtab = reinterpret_cast<const ElfW(Sym)*>(addr(d->d_un.d_ptr));
        break;
      case DT_STRTAB:
        strtab = reinterpret_cast<const char*>(addr(d->d_un.d_ptr));
        break;
      case DT_JMPREL:
        jmprel = addr(d->d_un.d_ptr);
        break;
      case DT_PLTRELSZ:
        jmprel_size = d->d_un.d_val;
        break;
      case DT_PLTREL:
        plt_is_rela = d->d_un.d_val == DT_RELA;
        break;
      case DT_RELA:
        rela = addr(d->d_un.d_ptr);
        break;
      case DT_RELASZ:
        rela_size = d->d_un.d_val;
        break;
      default:
        break;
    }
  }
  if (symtab == nullptr || strtab == nullptr) return;
  auto walk = [&](uintptr_t table, size_t bytes) {
    auto* r = reinterpret_cast<const ElfW(Rela)*>(table);
    for (size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
      uint32_t type = ELF64_R_TYPE(r[i].r_info);
      if (type != kJumpSlot && type != kGlobDat) continue;
      const ElfW(Sym)& sym = symtab[ELF64_R_SYM(r[i].r_info)];
      if (sym.st_shndx != SHN_UNDEF || sym.st_name == 0) continue;
      if (void* to = Replacement(strtab + sym.st_name)) {
        WriteSlot(o.base + r[i].r_offset, to, relro_begin, relro_end);
      }
    }
  };
  if (jmprel != 0 && plt_is_rela) walk(jmprel, jmprel_size);
  if (rela != 0) walk(rela, rela_size);
}

}  // namespace

void SetDlopenHook(void* hook) { g_dlopen_hook = hook; }

int PatchedSlots() { return g_patched; }

int ScanLoadedObjects() {
  unsigned long long counters[2] = {0, 0};
  dl_iterate_phdr(ReadCounters, counters);
  while (g_lock.test_and_set(std::memory_order_acquire)) {
  }
  int before = g_patched;
  if (g_done_count == 0 || counters[0] != g_last_adds || counters[1] != g_last_subs) {
    if (counters[1] != g_last_subs) g_done_count = 0;  // something was unloaded: recheck all
    if (g_self_base == 0) {
      Dl_info info;
      if (dladdr(reinterpret_cast<void*>(&ScanLoadedObjects), &info) != 0) {
        g_self_base = reinterpret_cast<uintptr_t>(info.dli_fbase);
      }
    }
    g_object_count = 0;
    dl_iterate_phdr(Collect, nullptr);
    // Real entry points first: a slot is only rewritten once its target is known.
    for (int i = 0; i < g_object_count; ++i) {
      const Object& o = g_objects[i];
      uint32_t provided = ProvidedLibraries(o.name) & g_traced_libraries;
      if (provided != 0 && !Done(o.base)) ResolveReals(o, provided);
    }
    for (int i = 0; i < g_object_count; ++i) {
      const Object& o = g_objects[i];
      if (Done(o.base)) continue;
      bool self = o.base == g_self_base;  // dli_fbase is l_addr for a shared object
      if (!self && !IsTracedLibrary(o.name)) PatchObject(o);
      if (g_done_count < kMaxObjects) g_done[g_done_count++] = o.base;
    }
  }
  int written = g_patched - before;
  g_lock.clear(std::memory_order_release);
  return written;
}

}  // namespace gsys::capture::libapi
