// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/group_stats_function.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"

namespace gsys::analysis {
namespace {

struct Group {
  std::vector<double> values;
  int64_t int_total = 0;
  double real_total = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  int64_t int_min = std::numeric_limits<int64_t>::max();
  int64_t int_max = std::numeric_limits<int64_t>::min();
  bool all_int = true;
};

struct State {
  std::unordered_map<int64_t, size_t, SeededHash> int_keys;  // report values
  std::unordered_map<std::string, size_t> text_keys;
  std::unordered_map<double, size_t> real_keys;
  ptrdiff_t null_key = -1;
  std::vector<Group> groups;
  int64_t last_int_key = 0;
  ptrdiff_t last_int_group = -1;
};

State* GetState(sqlite3_context* ctx, bool create) {
  auto** slot = static_cast<State**>(sqlite3_aggregate_context(ctx, create ? sizeof(State*) : 0));
  if (!slot) return nullptr;
  if (!*slot && create) *slot = new (std::nothrow) State();
  return *slot;
}

template <typename Map, typename Key>
size_t FindOrAdd(State& s, Map& map, const Key& key) {
  auto [it, inserted] = map.try_emplace(key, s.groups.size());
  if (inserted) s.groups.emplace_back();
  return it->second;
}

size_t GroupFor(State& s, sqlite3_value* key) {
  switch (sqlite3_value_type(key)) {
    case SQLITE_INTEGER: {
      int64_t k = sqlite3_value_int64(key);
      if (s.last_int_group >= 0 && k == s.last_int_key)
        return static_cast<size_t>(s.last_int_group);
      size_t g = FindOrAdd(s, s.int_keys, k);
      s.last_int_key = k;
      s.last_int_group = static_cast<ptrdiff_t>(g);
      return g;
    }
    case SQLITE_FLOAT:
      return FindOrAdd(s, s.real_keys, sqlite3_value_double(key));
    case SQLITE_NULL:
      if (s.null_key < 0) {
        s.null_key = static_cast<ptrdiff_t>(s.groups.size());
        s.groups.emplace_back();
      }
      return static_cast<size_t>(s.null_key);
    default: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(key));
      std::string k(text ? text : "", static_cast<size_t>(sqlite3_value_bytes(key)));
      return FindOrAdd(s, s.text_keys, k);
    }
  }
}

void Step(sqlite3_context* ctx, int, sqlite3_value** argv) {
  State* s = GetState(ctx, true);
  if (!s) return sqlite3_result_error_nomem(ctx);
  size_t g = GroupFor(*s, argv[0]);
  sqlite3_value* v = argv[1];
  int type = sqlite3_value_type(v);
  if (type == SQLITE_NULL) return;
  Group& group = s->groups[g];
  double x = sqlite3_value_double(v);
  if (type == SQLITE_INTEGER) {
    int64_t i = sqlite3_value_int64(v);
    // A sum past int64 (extreme values in a damaged report) is reported as the real sum, as
    // for REAL values, instead of overflowing.
    if (__builtin_add_overflow(group.int_total, i, &group.int_total)) group.all_int = false;
    group.int_min = std::min(group.int_min, i);
    group.int_max = std::max(group.int_max, i);
  } else {
    group.all_int = false;
  }
  group.real_total += x;
  group.min = std::min(group.min, x);
  group.max = std::max(group.max, x);
  group.values.push_back(x);
}

// p-quantile with linear interpolation between closest ranks; reorders `v`.
double Quantile(std::vector<double>& v, double p) {
  double pos = p * static_cast<double>(v.size() - 1);
  auto lo = static_cast<size_t>(std::floor(pos));
  std::nth_element(v.begin(), v.begin() + static_cast<ptrdiff_t>(lo), v.end());
  double lo_value = v[lo];
  if (lo + 1 >= v.size() || pos == static_cast<double>(lo)) return lo_value;
  double hi_value = *std::min_element(v.begin() + static_cast<ptrdiff_t>(lo) + 1, v.end());
  return lo_value + (hi_value - lo_value) * (pos - static_cast<double>(lo));
}

void AppendReal(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", x);
  out += buf;
}

void AppendInt(std::string& out, int64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%" PRId64, x);
  out += buf;
}

void AppendJsonString(std::string& out, const std::string& text) {
  out += '"';
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

void AppendGroup(std::string& out, Group& g) {
  size_t n = g.values.size();
  if (n == 0) {
    out += "0,null,null,null,null,null,null,null,null]";
    return;
  }
  double total = g.all_int ? static_cast<double>(g.int_total) : g.real_total;
  if (g.all_int)
    AppendInt(out, g.int_total);
  else
    AppendReal(out, g.real_total);
  out += ',';
  AppendInt(out, static_cast<int64_t>(n));
  out += ',';
  double mean = total / static_cast<double>(n);
  AppendReal(out, mean);
  out += ',';
  long double m2 = 0;
  for (double x : g.values)
    m2 += (x - static_cast<long double>(mean)) * (x - static_cast<long double>(mean));
  double stdev = n < 2 ? 0.0 : static_cast<double>(std::sqrt(m2 / static_cast<long double>(n - 1)));
  AppendReal(out, Quantile(g.values, 0.5));
  out += ',';
  if (g.all_int)
    AppendInt(out, g.int_min);
  else
    AppendReal(out, g.min);
  out += ',';
  if (g.all_int)
    AppendInt(out, g.int_max);
  else
    AppendReal(out, g.max);
  out += ',';
  AppendReal(out, stdev);
  out += ',';
  AppendReal(out, Quantile(g.values, 0.25));
  out += ',';
  AppendReal(out, Quantile(g.values, 0.75));
  out += ']';
}

void Final(sqlite3_context* ctx) {
  State* s = GetState(ctx, false);
  std::string out = "[";
  if (s) {
    bool first = true;
    auto emit_key = [&](size_t g, auto&& write_key) {
      out += first ? "[" : ",[";
      first = false;
      write_key();
      out += ',';
      AppendGroup(out, s->groups[g]);
    };
    if (s->null_key >= 0) emit_key(static_cast<size_t>(s->null_key), [&] { out += "null"; });
    // Pairs, not structured bindings: clang 14 cannot capture a binding in a lambda.
    std::vector<std::pair<int64_t, size_t>> ints(s->int_keys.begin(), s->int_keys.end());
    std::sort(ints.begin(), ints.end());
    for (const auto& kg : ints) emit_key(kg.second, [&] { AppendInt(out, kg.first); });
    std::vector<std::pair<double, size_t>> reals(s->real_keys.begin(), s->real_keys.end());
    std::sort(reals.begin(), reals.end());
    for (const auto& kg : reals) emit_key(kg.second, [&] { AppendReal(out, kg.first); });
    std::vector<std::pair<std::string, size_t>> texts(s->text_keys.begin(), s->text_keys.end());
    std::sort(texts.begin(), texts.end());
    for (const auto& kg : texts) emit_key(kg.second, [&] { AppendJsonString(out, kg.first); });
    delete s;
    *static_cast<State**>(sqlite3_aggregate_context(ctx, 0)) = nullptr;
  }
  out += ']';
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

}  // namespace

Status RegisterGroupStatsFunction(gsys::report::Database& db) {
  int rc = sqlite3_create_function_v2(db.raw(), "gsys_group_stats", 2,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, nullptr, Step,
                                      Final, nullptr);
  if (rc != SQLITE_OK) {
    return Error(StatusCode::kInternal, "stats: cannot register gsys_group_stats");
  }
  return OkStatus();
}

}  // namespace gsys::analysis
