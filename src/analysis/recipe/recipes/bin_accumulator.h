// SPDX-License-Identifier: Apache-2.0
// BinAccumulator: analysis::BusyBins on a recipe's heat-map grid (GlobalParams' origin and bin
// size). Shared by the *_time_util_map recipes.
#pragma once

#include "analysis/recipe/recipe.h"
#include "analysis/stats/busy_bins.h"

namespace gsys::analysis::recipe {

class BinAccumulator : public BusyBins {
 public:
  BinAccumulator(const GlobalParams& p, size_t bins) : BusyBins(p.origin, p.bin_size, bins) {}
};

}  // namespace gsys::analysis::recipe
