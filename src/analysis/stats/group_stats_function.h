// SPDX-License-Identifier: Apache-2.0
// gsys_group_stats(key, value): a hash-grouping aggregate that makes summary reports fast.
//
// Why: SQLite implements GROUP BY by sorting every input row (about 1 s per million rows on the
// reference machine), while a summary report only has a few hundred groups. This aggregate scans
// once, groups in a hash map and returns one JSON array with one element per group:
//   [key, total, count, avg, median, min, max, stdev, q1, q3]
// Reports unpack it with json_each(). NULL values are ignored (and not counted); NULL keys form
// their own group. total/min/max stay integers when every value is an integer. median and the
// quartiles interpolate linearly between closest ranks (as median()/lower_quartile() do); stdev
// is the sample standard deviation (0.0 for one value). Groups come out ordered by key.
#pragma once

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::analysis {

// Registers gsys_group_stats on `db` (safe to call more than once).
Status RegisterGroupStatsFunction(gsys::report::Database& db);

}  // namespace gsys::analysis
