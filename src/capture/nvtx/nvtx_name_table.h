// SPDX-License-Identifier: Apache-2.0
// The NVTX registry's memory: an arena of name records in wire format (what a forked child
// replays) and an open-addressing hash index over it, so a lookup costs O(1) at any number of
// domains, registered strings and categories (it was a linear scan of the arena).
//
// Keys, per record kind:
//   kNvtxDomainCreate    the name                  (one domain per name in the process)
//   kNvtxRegisterString  (domain, text)            (one handle per text and domain)
//   kNvtxNameCategory    (domain, category id)     (the latest name of a category)
//
// Memory: both parts are anonymous private mmaps (no malloc: the table lives in the injected
// library), so a forked child inherits a copy. The arena is reserved at its full size and
// committed by the kernel as it fills; the index starts at 4096 slots and doubles at half load,
// up to what the arena can hold (2 slots per smallest record: 4 MiB for an 8 MiB arena). A
// full arena keeps nothing more; the caller still emits the record, so only deduplication and
// the fork replay of later names are lost.
//
// Threading: none; the registry serializes every call with its lock.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/record.h"

namespace gsys::capture {

class NvtxNameTable {
 public:
  // Reserves the arena; false when mmap fails (then every Find misses and Put keeps nothing).
  bool Init(size_t arena_bytes);

  // Unmaps both parts; the table is empty (and needs Init) afterwards.
  void Release();

  // The kept record with the key of (kind, domain, id, text): its body, and its text through
  // `text`/`len`; nullptr when there is none. `id` is part of the key for categories only;
  // `domain` is not part of a domain's key.
  const format::NvtxNameBody* Find(format::RecordKind kind, uint32_t domain, uint64_t id,
                                   const char* text, size_t len, const char** stored_text) const;

  // Appends the record (header `h`, body `b`, `len` bytes of `text`) to the arena and indexes
  // it, replacing the entry of the same key (a renamed category). False when it was not kept.
  bool Put(const format::RecordHeader& h, const format::NvtxNameBody& b, const char* text);

  // The arena: whole records, oldest first.
  const uint8_t* arena() const { return arena_; }
  size_t used() const { return used_; }
  size_t entries() const { return count_; }

 private:
  struct Slot {
    uint32_t hash;  // of the key; also decides the slot after a resize
    uint32_t ref;   // arena offset / 8 + 1 of the record; 0 = empty
  };

  static uint32_t Hash(format::RecordKind kind, uint32_t domain, uint64_t id, const char* text,
                       size_t len);
  // Slot holding the key, or the empty slot where it would go; nullptr without an index.
  Slot* Probe(format::RecordKind kind, uint32_t domain, uint64_t id, const char* text, size_t len,
              uint32_t hash) const;
  bool Matches(const Slot& s, format::RecordKind kind, uint32_t domain, uint64_t id,
               const char* text, size_t len) const;
  bool Grow();

  uint8_t* arena_ = nullptr;
  size_t arena_cap_ = 0;
  size_t used_ = 0;
  Slot* slots_ = nullptr;
  uint32_t mask_ = 0;  // slot count - 1 (a power of two); 0 without an index
  uint32_t count_ = 0;
};

}  // namespace gsys::capture
