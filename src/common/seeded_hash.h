// SPDX-License-Identifier: Apache-2.0
// A hash for integer keys that come from untrusted input (range ids, string ids, handles in a
// raw stream). std::hash of an integer is the integer itself, so keys that are multiples of a
// table's bucket count all land in one bucket: 200 000 NVTX start/end ranges with such ids
// took 47 s to import instead of a fraction of one (issue 17 item 10). Mixed with a seed drawn
// once per process, the bucket of a key cannot be chosen in advance.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys {

// The process's seed: random (getrandom, else time and address bits), fixed after first use.
uint64_t ProcessHashSeed();

// For std::unordered_map<Integer, T, SeededHash>. Thread-safe.
struct SeededHash {
  size_t operator()(uint64_t key) const {
    // splitmix64's finalizer over the seeded key: every input bit reaches every output bit.
    uint64_t x = key ^ ProcessHashSeed();
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<size_t>(x ^ (x >> 31));
  }
};

}  // namespace gsys
