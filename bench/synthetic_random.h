// SPDX-License-Identifier: Apache-2.0
// Deterministic randomness for the synthetic report generator: a SplitMix64 stream and a
// Zipf-like sampler. Both are defined here, bit for bit, instead of using <random>'s
// distributions, whose outputs differ between standard libraries: the same --seed must give
// the same report on every platform.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace gsys::bench {

// SplitMix64 (Steele, Lea, Flood 2014): tiny state, passes BigCrush, and fast enough that
// the generator's cost is SQLite's, not ours.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [lo, hi] (inclusive); the tiny modulo bias is irrelevant here.
  int64_t Range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // True with probability `p`.
  bool Chance(double p) { return Uniform() < p; }
  // Log-uniform integer in [lo, hi]: many small values, a long tail (sizes, durations).
  int64_t LogUniform(int64_t lo, int64_t hi) {
    double l = std::log(static_cast<double>(lo));
    double h = std::log(static_cast<double>(hi));
    return static_cast<int64_t>(std::exp(l + (h - l) * Uniform()));
  }

 private:
  uint64_t state_;
};

// Samples ranks 0..n-1 with P(k) proportional to 1 / (k + 1)^exponent, by binary search over
// the cumulative weights (n is a few hundred at most, so a search is ~9 comparisons).
class ZipfSampler {
 public:
  ZipfSampler(size_t n, double exponent) : cdf_(n) {
    double sum = 0;
    for (size_t k = 0; k < n; ++k) {
      sum += 1.0 / std::pow(static_cast<double>(k + 1), exponent);
      cdf_[k] = sum;
    }
    for (double& c : cdf_) c /= sum;
  }

  size_t Sample(Rng& rng) const {
    double u = rng.Uniform();
    auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
    return it == cdf_.end() ? cdf_.size() - 1 : static_cast<size_t>(it - cdf_.begin());
  }
  size_t size() const { return cdf_.size(); }

 private:
  std::vector<double> cdf_;
};

// Spreads `total` events evenly over `steps` steps: the number of events due at step `step`
// (0-based). Summed over all steps it is exactly `total` (Bresenham), so row counts are exact
// while the events still interleave.
inline int64_t DueAt(int64_t step, int64_t total, int64_t steps) {
  if (steps <= 0) return 0;
  // 128-bit products: 10^7 x 10^7 fits in int64, but flags are user input.
  auto at = [&](int64_t s) {
    return static_cast<int64_t>(static_cast<__int128>(s) * total / steps);
  };
  return at(step + 1) - at(step);
}

}  // namespace gsys::bench
