// SPDX-License-Identifier: Apache-2.0
#include "common/seeded_hash.h"

#include <sys/random.h>

#include <chrono>

namespace gsys {

uint64_t ProcessHashSeed() {
  static const uint64_t seed = [] {
    uint64_t value = 0;
    if (getrandom(&value, sizeof value, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof value)) {
      static int anchor;
      value = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
              reinterpret_cast<uintptr_t>(&anchor);
    }
    return value;
  }();
  return seed;
}

}  // namespace gsys
