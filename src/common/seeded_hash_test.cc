// SPDX-License-Identifier: Apache-2.0
#include "common/seeded_hash.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <unordered_map>

namespace gsys {
namespace {

// Keys that are all multiples of the final bucket count: one bucket with std::hash.
TEST(SeededHashTest, MultiplesOfTheBucketCountSpreadOut) {
  std::unordered_map<uint64_t, int> probe;
  for (uint64_t i = 0; i < 100000; ++i) probe[i] = 0;
  const uint64_t buckets = probe.bucket_count();
  std::unordered_map<uint64_t, int, SeededHash> map;
  for (uint64_t i = 1; i <= 100000; ++i) map[i * buckets] = 0;
  size_t largest = 0;
  for (size_t b = 0; b < map.bucket_count(); ++b) largest = std::max(largest, map.bucket_size(b));
  EXPECT_LT(largest, 32u);
  EXPECT_EQ(ProcessHashSeed(), ProcessHashSeed());
}

}  // namespace
}  // namespace gsys
