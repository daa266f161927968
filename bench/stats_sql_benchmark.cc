// SPDX-License-Identifier: Apache-2.0
// gsys_stats_sql_benchmark: where `gsys stats` spends its time, report by report.
//
//   gsys_stats_sql_benchmark REPORT [-r NAME,...] [--profile [--sql]] [--benchmark_* flags]
//   gsys_stats_sql_benchmark REPORT --query FILE [--mmap] [--print]

//
// Default mode: Google Benchmark with one case per stats report (default: nsys's default set
// plus cuda_gpu_kern_sum and cuda_api_sum) and one for opening the report; each iteration runs
// the report through the same RunReport the CLI uses, without formatting.
// --profile: runs each report once and prints every SQL statement SQLite executed with its
// time (sqlite3_trace_v2, SQLITE_TRACE_PROFILE), and the EXPLAIN QUERY PLAN of the slow ones
// (over 10 ms); --sql also prints their full text.
// --query FILE: runs the SQL in FILE on the opened report (gsys SQL functions registered) and
// prints its time, plan and row count: for trying a report's SQL with a proposed change;
// --mmap first sets PRAGMA mmap_size (an experiment for the reader); --print prints the rows.
#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/stats/group_stats_function.h"
#include "analysis/stats/stats.h"
#include "common/strings.h"
#include "report/reader/report_reader.h"

namespace gsys::bench {
namespace {

struct Traced {
  std::string sql;
  int64_t ns;
};

int OnTrace(unsigned type, void* ctx, void* p, void* x) {
  if (type == SQLITE_TRACE_PROFILE) {
    const char* sql = sqlite3_sql(static_cast<sqlite3_stmt*>(p));
    static_cast<std::vector<Traced>*>(ctx)->push_back({sql ? sql : "", *static_cast<int64_t*>(x)});
  }
  return 0;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void PrintPlan(report::Database& db, const std::string& sql) {
  Result<report::Statement> plan = db.Prepare("EXPLAIN QUERY PLAN " + sql);
  if (!plan.ok()) return;
  while (true) {
    Result<bool> row = plan->Step();
    if (!row.ok() || !*row) break;
    std::printf("      plan: %s\n", std::string(plan->ColumnText(3)).c_str());
  }
}

int Profile(const std::string& path, const std::vector<std::string>& reports, bool full_sql) {
  auto t0 = std::chrono::steady_clock::now();
  Result<report::ReportReader> reader = report::ReportReader::Open(path);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.status().message().c_str());
    return 1;
  }
  std::printf("open: %.3f s\n", Seconds(t0));
  std::vector<Traced> traced;
  sqlite3_trace_v2(reader->db().raw(), SQLITE_TRACE_PROFILE, OnTrace, &traced);
  for (const std::string& name : reports) {
    traced.clear();
    auto start = std::chrono::steady_clock::now();
    Result<analysis::ReportOutcome> outcome = analysis::RunReport(*reader, {name, {}});
    double secs = Seconds(start);
    std::printf("%s: %.3f s%s\n", name.c_str(), secs,
                !outcome.ok()      ? (" FAILED: " + outcome.status().message()).c_str()
                : outcome->skipped ? " (skipped)"
                                   : "");
    std::vector<Traced> statements = std::move(traced);
    for (const Traced& t : statements) {
      std::string one_line = t.sql;
      for (char& c : one_line) c = c == '\n' ? ' ' : c;
      std::printf("  %9.3f ms  %.150s\n", static_cast<double>(t.ns) / 1e6, one_line.c_str());
      if (t.ns <= 10'000'000) continue;
      PrintPlan(reader->db(), t.sql);
      if (full_sql) std::printf("%s\n", t.sql.c_str());
    }
  }
  return 0;
}

int Query(const std::string& path, const std::string& sql_file, bool mmap, bool print) {
  std::ifstream in(sql_file);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", sql_file.c_str());
    return 1;
  }
  Result<report::ReportReader> reader = report::ReportReader::Open(path);
  if (!reader.ok() || !analysis::RegisterGroupStatsFunction(reader->db()).ok()) {
    std::fprintf(stderr, "%s: cannot open or register functions\n", path.c_str());
    return 1;
  }
  // An experiment for the reader: map the file instead of copying pages out of the page cache.
  if (mmap && !reader->db().Exec("PRAGMA mmap_size = 68719476736").ok()) return 1;
  PrintPlan(reader->db(), text.str());
  auto start = std::chrono::steady_clock::now();
  Result<report::Statement> stmt = reader->db().Prepare(text.str());
  int64_t rows = 0;
  while (stmt.ok()) {
    Result<bool> row = stmt->Step();
    if (!row.ok()) {
      std::fprintf(stderr, "%s\n", row.status().message().c_str());
      return 1;
    }
    if (!*row) break;
    ++rows;
    for (int c = 0; print && c < stmt->ColumnCount(); ++c) {
      std::printf("%s%s", c ? "|" : "", std::string(stmt->ColumnText(c)).c_str());
    }
    if (print) std::printf("\n");
  }
  if (!stmt.ok()) {
    std::fprintf(stderr, "%s\n", stmt.status().message().c_str());
    return 1;
  }
  std::printf("%s: %lld rows in %.3f s\n", sql_file.c_str(), static_cast<long long>(rows),
              Seconds(start));
  return 0;
}

void BM_Open(benchmark::State& state, const std::string& path) {
  for (auto _ : state) {
    Result<report::ReportReader> reader = report::ReportReader::Open(path);
    if (!reader.ok()) state.SkipWithError(reader.status().message().c_str());
  }
}

void BM_Report(benchmark::State& state, const std::string& path, const std::string& name) {
  Result<report::ReportReader> reader = report::ReportReader::Open(path);
  if (!reader.ok()) return state.SkipWithError(reader.status().message().c_str());
  for (auto _ : state) {
    Result<analysis::ReportOutcome> outcome = analysis::RunReport(*reader, {name, {}});
    if (!outcome.ok()) return state.SkipWithError(outcome.status().message().c_str());
    benchmark::DoNotOptimize(outcome->table.rows.size());
  }
}

int Main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);  // consumes --benchmark_* flags
  std::string path;
  std::vector<std::string> reports;
  bool profile = false;
  bool full_sql = false;
  std::string query;
  bool mmap = false;
  bool print = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--profile") {
      profile = true;
    } else if (arg == "--query" && i + 1 < argc) {
      query = argv[++i];
    } else if (arg == "--print") {
      print = true;
    } else if (arg == "--mmap") {
      mmap = true;
    } else if (arg == "--sql") {
      full_sql = true;
    } else if (arg == "-r" && i + 1 < argc) {
      for (const std::string& r : Split(argv[++i], ',')) reports.push_back(r);
    } else if (path.empty() && !arg.empty() && arg[0] != '-') {
      path = arg;
    } else {
      std::fprintf(stderr,
                   "usage: gsys_stats_sql_benchmark REPORT [-r NAME,...] [--profile [--sql]]\n");
      return 2;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr,
                 "usage: gsys_stats_sql_benchmark REPORT [-r NAME,...] [--profile [--sql]]\n");
    return 2;
  }
  if (reports.empty()) {
    reports = analysis::DefaultReports();
    reports.push_back("cuda_gpu_kern_sum");
    reports.push_back("cuda_api_sum");
  }
  if (!query.empty()) return Query(path, query, mmap, print);
  if (profile) return Profile(path, reports, full_sql);
  benchmark::RegisterBenchmark("open", BM_Open, path)->Unit(benchmark::kMillisecond);
  for (const std::string& name : reports) {
    benchmark::RegisterBenchmark(name.c_str(), BM_Report, path, name)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace gsys::bench

int main(int argc, char** argv) { return gsys::bench::Main(argc, argv); }
