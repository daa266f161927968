// SPDX-License-Identifier: Apache-2.0
// SQL functions that nsys's stats SQL relies on and stock SQLite lacks.
#pragma once

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report {

// Registers on `db`:
//   median(x)          aggregate; even count -> mean of the two middle values; NULLs ignored
//   stdev(x)           aggregate; sample standard deviation (n-1); one value -> 0.0; none -> NULL
//   lower_quartile(x)  aggregate; 25th percentile, linear interpolation between closest ranks
//   upper_quartile(x)  aggregate; 75th percentile, same method
//   unique_duration(start, end)  aggregate; total length of the union of [start, end) intervals
//   round(x, n)        replaces SQLite's: the exact binary value, half away from zero (nsys)
Status RegisterSqlFunctions(Database& db);

}  // namespace gsys::report
