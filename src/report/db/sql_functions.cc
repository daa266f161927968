// SPDX-License-Identifier: Apache-2.0
#include "report/db/sql_functions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "common/saturating.h"

namespace gsys::report {
namespace {

// Aggregate state lives in a heap object whose pointer is kept in SQLite's
// per-group context memory; the final callback frees it.
template <typename State>
State* GetState(sqlite3_context* ctx, bool create) {
  auto** slot = static_cast<State**>(sqlite3_aggregate_context(ctx, create ? sizeof(State*) : 0));
  if (!slot) return nullptr;
  if (!*slot && create) *slot = new (std::nothrow) State();
  return *slot;
}

template <typename State>
State* TakeState(sqlite3_context* ctx) {
  State* state = GetState<State>(ctx, false);
  auto** slot = static_cast<State**>(sqlite3_aggregate_context(ctx, 0));
  if (slot) *slot = nullptr;
  return state;
}

struct Values {
  std::vector<double> values;
};

void CollectStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  Values* state = GetState<Values>(ctx, true);
  if (!state) return sqlite3_result_error_nomem(ctx);
  state->values.push_back(sqlite3_value_double(argv[0]));
}

// Percentile p in [0,1] with linear interpolation between closest ranks.
double Percentile(std::vector<double>& v, double p) {
  double pos = p * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(lo), v.end());
  double lo_value = v[lo];
  if (lo + 1 >= v.size() || pos == static_cast<double>(lo)) return lo_value;
  double hi_value = *std::min_element(v.begin() + static_cast<long>(lo) + 1, v.end());
  return lo_value + (hi_value - lo_value) * (pos - static_cast<double>(lo));
}

template <int kPercent>
void PercentileFinal(sqlite3_context* ctx) {
  Values* state = TakeState<Values>(ctx);
  if (!state || state->values.empty()) {
    delete state;
    return sqlite3_result_null(ctx);
  }
  sqlite3_result_double(ctx, Percentile(state->values, kPercent / 100.0));
  delete state;
}

struct Moments {
  int64_t n = 0;
  long double mean = 0;
  long double m2 = 0;
};

void StdevStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  Moments* m = GetState<Moments>(ctx, true);
  if (!m) return sqlite3_result_error_nomem(ctx);
  long double x = sqlite3_value_double(argv[0]);
  m->n++;
  long double delta = x - m->mean;
  m->mean += delta / static_cast<long double>(m->n);
  m->m2 += delta * (x - m->mean);
}

void StdevFinal(sqlite3_context* ctx) {
  Moments* m = TakeState<Moments>(ctx);
  if (!m || m->n == 0) {
    delete m;
    return sqlite3_result_null(ctx);
  }
  double result = m->n < 2 ? 0.0 : static_cast<double>(std::sqrt(m->m2 / (m->n - 1)));
  delete m;
  sqlite3_result_double(ctx, result);
}

struct Intervals {
  std::vector<std::pair<int64_t, int64_t>> spans;
};

void UniqueDurationStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    return;
  }
  Intervals* state = GetState<Intervals>(ctx, true);
  if (!state) return sqlite3_result_error_nomem(ctx);
  state->spans.emplace_back(sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1]));
}

void UniqueDurationFinal(sqlite3_context* ctx) {
  Intervals* state = TakeState<Intervals>(ctx);
  if (!state) return sqlite3_result_int64(ctx, 0);
  auto& spans = state->spans;
  std::sort(spans.begin(), spans.end());
  int64_t total = 0;
  int64_t cur_start = 0, cur_end = 0;
  bool open = false;
  for (auto [s, e] : spans) {
    if (e <= s) continue;
    if (open && s <= cur_end) {
      cur_end = std::max(cur_end, e);
      continue;
    }
    if (open) total = SaturatingAdd(total, SaturatingSub(cur_end, cur_start));
    cur_start = s;
    cur_end = e;
    open = true;
  }
  // Saturating: a report may hold any 64-bit times (a span from INT64_MIN to INT64_MAX).
  if (open) total = SaturatingAdd(total, SaturatingSub(cur_end, cur_start));
  delete state;
  sqlite3_result_int64(ctx, total);
}

// round(x, n) as nsys 2025.3.1's numbers come out (tests/parity): the exact binary value of x
// rounded to n decimals, half away from zero. 8214437 / 20.0 is 410721.849999... in binary and
// prints 410721.8; 27833629 / 4.0 is exactly 6958407.25 and prints 6958407.3. SQLite's own
// round() gives 410721.9 (it rounds a 15-digit decimal), Python's gives 6958407.2 (ties to even).
void RoundHalfAwayOnBinaryValue(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  double x = sqlite3_value_double(argv[0]);
  int64_t n = sqlite3_value_type(argv[1]) == SQLITE_NULL ? 0 : sqlite3_value_int64(argv[1]);
  int digits = static_cast<int>(std::clamp<int64_t>(n, 0, 15));
  if (!std::isfinite(x)) return sqlite3_result_double(ctx, x);
  // glibc prints the exact binary expansion; 60 decimals cover every digit that can decide.
  char exact[400];
  std::snprintf(exact, sizeof(exact), "%.60f", std::fabs(x));
  const char* point = std::strchr(exact, '.');
  bool up = point && point[1 + digits] >= '5';
  std::string kept(exact, point ? static_cast<size_t>(point - exact) + 1 + digits : strlen(exact));
  double magnitude = std::strtod(kept.c_str(), nullptr);
  if (up) {
    char next[400];
    std::snprintf(next, sizeof(next), "%.*f", digits, magnitude + std::pow(10.0, -digits));
    magnitude = std::strtod(next, nullptr);
  }
  sqlite3_result_double(ctx, std::signbit(x) ? -magnitude : magnitude);
}

Status Register(Database& db, const char* name, int nargs,
                void (*step)(sqlite3_context*, int, sqlite3_value**),
                void (*final)(sqlite3_context*)) {
  int rc = sqlite3_create_function_v2(db.raw(), name, nargs, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                      nullptr, nullptr, step, final, nullptr);
  if (rc != SQLITE_OK) {
    return Error(StatusCode::kInternal, std::string("sqlite: cannot register ") + name);
  }
  return OkStatus();
}

}  // namespace

Status RegisterSqlFunctions(Database& db) {
  GSYS_RETURN_IF_ERROR(Register(db, "median", 1, CollectStep, PercentileFinal<50>));
  GSYS_RETURN_IF_ERROR(Register(db, "lower_quartile", 1, CollectStep, PercentileFinal<25>));
  GSYS_RETURN_IF_ERROR(Register(db, "upper_quartile", 1, CollectStep, PercentileFinal<75>));
  GSYS_RETURN_IF_ERROR(Register(db, "stdev", 1, StdevStep, StdevFinal));
  GSYS_RETURN_IF_ERROR(Register(db, "unique_duration", 2, UniqueDurationStep, UniqueDurationFinal));
  int rc =
      sqlite3_create_function_v2(db.raw(), "round", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                 RoundHalfAwayOnBinaryValue, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Error(StatusCode::kInternal, "sqlite: cannot register round");
  return OkStatus();
}

}  // namespace gsys::report
