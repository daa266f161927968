// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_name_table.h"

#include <sys/mman.h>

#include <cstring>

namespace gsys::capture {
namespace {

using format::NvtxNameBody;
using format::RecordHeader;
using format::RecordKind;

constexpr uint32_t kInitialSlots = 4096;
constexpr size_t kMinRecord = sizeof(RecordHeader) + sizeof(NvtxNameBody);

void* MapBytes(size_t n) {
  void* p =
      mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

uint64_t Fnv(uint64_t h, const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// What of (domain, id, text) is part of the key of `kind` (header comment).
bool DomainInKey(RecordKind kind) { return kind != RecordKind::kNvtxDomainCreate; }
bool IdInKey(RecordKind kind) { return kind == RecordKind::kNvtxNameCategory; }
bool TextInKey(RecordKind kind) { return kind != RecordKind::kNvtxNameCategory; }

}  // namespace

bool NvtxNameTable::Init(size_t arena_bytes) {
  void* arena = MapBytes(arena_bytes);
  if (arena == nullptr) return false;
  void* slots = MapBytes(kInitialSlots * sizeof(Slot));
  if (slots == nullptr) {
    munmap(arena, arena_bytes);
    return false;
  }
  arena_ = static_cast<uint8_t*>(arena);
  arena_cap_ = arena_bytes;
  slots_ = static_cast<Slot*>(slots);
  mask_ = kInitialSlots - 1;
  return true;
}

void NvtxNameTable::Release() {
  if (arena_ != nullptr) munmap(arena_, arena_cap_);
  if (slots_ != nullptr) munmap(slots_, (size_t{mask_} + 1) * sizeof(Slot));
  *this = NvtxNameTable();
}

uint32_t NvtxNameTable::Hash(RecordKind kind, uint32_t domain, uint64_t id, const char* text,
                             size_t len) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto k = static_cast<uint16_t>(kind);
  h = Fnv(h, &k, sizeof(k));
  if (DomainInKey(kind)) h = Fnv(h, &domain, sizeof(domain));
  if (IdInKey(kind)) h = Fnv(h, &id, sizeof(id));
  if (TextInKey(kind)) h = Fnv(h, text, len);
  h ^= h >> 29;  // FNV's low bits mix poorly; the slot index uses them
  h *= 0xbf58476d1ce4e5b9ull;
  return static_cast<uint32_t>(h >> 32);
}

bool NvtxNameTable::Matches(const Slot& s, RecordKind kind, uint32_t domain, uint64_t id,
                            const char* text, size_t len) const {
  const uint8_t* rec = arena_ + size_t{s.ref - 1} * 8;
  RecordHeader h;
  NvtxNameBody b;
  std::memcpy(&h, rec, sizeof(h));
  std::memcpy(&b, rec + sizeof(h), sizeof(b));
  if (h.kind != static_cast<uint16_t>(kind)) return false;
  if (DomainInKey(kind) && b.domain != domain) return false;
  if (IdInKey(kind) && b.id != id) return false;
  if (TextInKey(kind)) {
    return b.text_len == len &&
           (len == 0 || std::memcmp(rec + sizeof(h) + sizeof(b), text, len) == 0);
  }
  return true;
}

NvtxNameTable::Slot* NvtxNameTable::Probe(RecordKind kind, uint32_t domain, uint64_t id,
                                          const char* text, size_t len, uint32_t hash) const {
  if (slots_ == nullptr) return nullptr;
  // Linear probing; the load stays at most 3/4 (Put), so an empty slot always ends the walk.
  for (uint32_t i = hash & mask_;; i = (i + 1) & mask_) {
    Slot* s = &slots_[i];
    if (s->ref == 0) return s;
    if (s->hash == hash && Matches(*s, kind, domain, id, text, len)) return s;
  }
}

const NvtxNameBody* NvtxNameTable::Find(RecordKind kind, uint32_t domain, uint64_t id,
                                        const char* text, size_t len,
                                        const char** stored_text) const {
  Slot* s = Probe(kind, domain, id, text, len, Hash(kind, domain, id, text, len));
  if (s == nullptr || s->ref == 0) return nullptr;
  const uint8_t* rec = arena_ + size_t{s->ref - 1} * 8;
  *stored_text = reinterpret_cast<const char*>(rec + sizeof(RecordHeader) + sizeof(NvtxNameBody));
  return reinterpret_cast<const NvtxNameBody*>(rec + sizeof(RecordHeader));
}

bool NvtxNameTable::Grow() {
  // More slots than twice the records the arena can hold would never be used.
  size_t max_slots = 2 * (arena_cap_ / kMinRecord);
  size_t n = size_t{mask_} + 1;
  if (2 * n > max_slots && n >= kInitialSlots) return false;
  auto* grown = static_cast<Slot*>(MapBytes(2 * n * sizeof(Slot)));
  if (grown == nullptr) return false;
  uint32_t mask = static_cast<uint32_t>(2 * n - 1);
  for (size_t i = 0; i < n; ++i) {
    if (slots_[i].ref == 0) continue;
    uint32_t j = slots_[i].hash & mask;
    while (grown[j].ref != 0) j = (j + 1) & mask;
    grown[j] = slots_[i];
  }
  munmap(slots_, n * sizeof(Slot));
  slots_ = grown;
  mask_ = mask;
  return true;
}

bool NvtxNameTable::Put(const RecordHeader& h, const NvtxNameBody& b, const char* text) {
  if (arena_ == nullptr) return false;
  size_t size = format::RecordSize(sizeof(b), b.text_len);
  if (size != h.size || used_ + size > arena_cap_) return false;
  auto kind = static_cast<RecordKind>(h.kind);
  uint32_t hash = Hash(kind, b.domain, b.id, text, b.text_len);
  size_t slots = size_t{mask_} + 1;
  if (2 * (size_t{count_} + 1) > slots && !Grow() && 4 * (size_t{count_} + 1) > 3 * slots) {
    return false;  // no bigger index (mmap failed): keep the walk short and bounded
  }
  Slot* s = Probe(kind, b.domain, b.id, text, b.text_len, hash);
  uint8_t* p = arena_ + used_;
  std::memcpy(p, &h, sizeof(h));
  std::memcpy(p + sizeof(h), &b, sizeof(b));
  if (b.text_len != 0) std::memcpy(p + sizeof(h) + sizeof(b), text, b.text_len);
  std::memset(p + sizeof(h) + sizeof(b) + b.text_len, 0, size - sizeof(h) - sizeof(b) - b.text_len);
  if (s->ref == 0) ++count_;
  s->hash = hash;
  s->ref = static_cast<uint32_t>(used_ / 8 + 1);
  used_ += size;
  return true;
}

}  // namespace gsys::capture
