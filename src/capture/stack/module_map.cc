// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/module_map.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "capture/sink/sink.h"
#include "format/stack_records.h"

namespace gsys::capture {
namespace {

constexpr size_t kSeenSlots = 4096;  // open addressing over load biases
uint64_t g_seen[kSeenSlots];
std::atomic<bool> g_busy{false};
unsigned long long g_last_adds = ~0ull;
char g_exe[1024];

// True when `key` was not in the table (and is now).
bool Insert(uint64_t key) {
  key |= 1;  // 0 marks an empty slot
  size_t i = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 52) & (kSeenSlots - 1);
  for (size_t n = 0; n < kSeenSlots; ++n, i = (i + 1) & (kSeenSlots - 1)) {
    if (g_seen[i] == key) return false;
    if (g_seen[i] == 0) {
      g_seen[i] = key;
      return true;
    }
  }
  return false;  // full: stop emitting rather than loop
}

// The NT_GNU_BUILD_ID note of an object, from its PT_NOTE segments in memory.
size_t BuildId(const dl_phdr_info* info, const uint8_t** id) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
    const uint8_t* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const uint8_t* name = p + sizeof(*n);
      const uint8_t* desc = name + ((n->n_namesz + 3) & ~3u);
      if (desc + n->n_descsz > end) break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        *id = desc;
        return n->n_descsz;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 0;
}

int OnObject(dl_phdr_info* info, size_t size, void* first) {
  if (*static_cast<bool*>(first)) {
    *static_cast<bool*>(first) = false;
    if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
      if (info->dlpi_adds == g_last_adds) return 1;  // nothing new: stop here
      g_last_adds = info->dlpi_adds;
    }
  }
  uint64_t lo = ~0ull, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uint64_t a = info->dlpi_addr + ph.p_vaddr;
    if (a < lo) lo = a;
    if (a + ph.p_memsz > hi) hi = a + ph.p_memsz;
  }
  if (hi == 0 || !Insert(lo)) return 0;
  const char* path = info->dlpi_name;
  if (path == nullptr || path[0] == '\0') path = g_exe;
  const uint8_t* id = nullptr;
  size_t id_len = BuildId(info, &id);
  char text[1024 + 64];
  size_t path_len = std::strlen(path);
  if (path_len > 1024) path_len = 1024;
  if (id_len > 64) id_len = 0;
  std::memcpy(text, path, path_len);
  if (id_len != 0) std::memcpy(text + path_len, id, id_len);
  format::StackModuleBody b{info->dlpi_addr, lo, hi, static_cast<uint32_t>(path_len),
                            static_cast<uint32_t>(id_len)};
  EmitRecord(format::kStackModule, b, text, static_cast<uint32_t>(path_len + id_len));
  return 0;
}

}  // namespace

void EmitModuleMapIfChanged() {
  if (g_busy.exchange(true, std::memory_order_acquire)) return;
  ++t_thread.guard;
  if (g_exe[0] == '\0') {
    ssize_t n = readlink("/proc/self/exe", g_exe, sizeof(g_exe) - 1);
    g_exe[n > 0 ? n : 0] = '\0';
  }
  bool first = true;
  dl_iterate_phdr(&OnObject, &first);
  --t_thread.guard;
  g_busy.store(false, std::memory_order_release);
}

void ResetModuleMap() {
  std::memset(g_seen, 0, sizeof(g_seen));
  g_last_adds = ~0ull;
  g_busy.store(false, std::memory_order_relaxed);
}

}  // namespace gsys::capture
