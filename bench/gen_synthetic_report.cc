// SPDX-License-Identifier: Apache-2.0
// gsys_gen_report: writes a synthetic report for benchmarks and tests.
//
//   gsys_gen_report --kernels 10000000 --api 10200000 --nvtx 2000000 --seed 1 -o big.sqlite
//
// The output is written to OUT.tmp and renamed at the end, so an interrupted run never leaves a
// half-written report under the final name.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/synthetic_report.h"
#include "cli/flags.h"
#include "common/strings.h"

namespace gsys::bench {
namespace {

const std::vector<cli::FlagSpec>& Specs() {
  static const std::vector<cli::FlagSpec> kSpecs = {
      {"kernels", 0, cli::FlagValue::kRequired, "N", "kernel rows (default 1000)"},
      {"api", 0, cli::FlagValue::kRequired, "M",
       "CUDA API rows, launches included (default kernels * 1.1)"},
      {"nvtx", 0, cli::FlagValue::kRequired, "K", "NVTX push/pop ranges (default 0)"},
      {"memcpy", 0, cli::FlagValue::kRequired, "N",
       "memcpy rows (default 30 % of the non-launch API calls)"},
      {"memset", 0, cli::FlagValue::kRequired, "N",
       "memset rows (default 10 % of the non-launch API calls)"},
      {"osrt", 0, cli::FlagValue::kRequired, "N", "OS runtime rows (default api / 20)"},
      {"processes", 0, cli::FlagValue::kRequired, "N",
       "processes, one GPU each; correlation ids repeat across them (default 1)"},
      {"threads", 0, cli::FlagValue::kRequired, "N", "threads per process (default 4)"},
      {"streams", 0, cli::FlagValue::kRequired, "N", "CUDA streams per process (default 4)"},
      {"kernel-names", 0, cli::FlagValue::kRequired, "N", "distinct kernel names (default 300)"},
      {"seed", 0, cli::FlagValue::kRequired, "S", "random seed (default 1)"},
      {"output", 'o', cli::FlagValue::kRequired, "FILE", "output report (required)"},
      {"quiet", 'q', cli::FlagValue::kNone, "", "print nothing on success"},
      {"help", 'h', cli::FlagValue::kNone, "", "show this help"},
  };
  return kSpecs;
}

Status ReadCount(const cli::ParsedFlags& flags, const std::string& name, int64_t& out) {
  std::optional<std::string> text = flags.Last(name);
  if (!text) return OkStatus();
  std::optional<int64_t> value = ParseInt64(*text);
  if (!value || *value < 0) {
    return Error(StatusCode::kInvalidArgument,
                 "gen_report: --" + name + " expects a non-negative integer, got '" + *text + "'");
  }
  out = *value;
  return OkStatus();
}

Status Generate(const cli::ParsedFlags& flags, const std::string& command_line) {
  TimelineOptions o;
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "kernels", o.kernels));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "api", o.api));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "nvtx", o.nvtx));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "memcpy", o.memcpy));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "memset", o.memset));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "osrt", o.osrt));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "processes", o.processes));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "threads", o.threads));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "streams", o.streams));
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "kernel-names", o.kernel_names));
  int64_t seed = 1;
  GSYS_RETURN_IF_ERROR(ReadCount(flags, "seed", seed));
  o.seed = static_cast<uint64_t>(seed);
  std::optional<std::string> out = flags.Last("output");
  if (!out || out->empty())
    return Error(StatusCode::kInvalidArgument, "gen_report: -o FILE is required");

  auto t0 = std::chrono::steady_clock::now();
  std::string tmp = *out + ".tmp";
  std::error_code ec;
  std::filesystem::remove(tmp, ec);
  Result<SyntheticReportCounts> counts = SyntheticReportCounts{};
  {
    GSYS_ASSIGN_OR_RETURN(report::Database db,
                          report::Database::Open(tmp, report::Database::Mode::kReadWriteCreate));
    counts = WriteSyntheticReport(db, o, command_line);
  }
  if (!counts.ok()) {
    std::filesystem::remove(tmp, ec);
    return counts.status();
  }
  std::filesystem::rename(tmp, *out, ec);
  if (ec)
    return Error(StatusCode::kIoError,
                 "gen_report: cannot rename to '" + *out + "': " + ec.message());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!flags.Has("quiet")) {
    const TimelineOptions& r = counts->resolved;
    std::printf(
        "%s: %lld kernels, %lld api, %lld memcpy, %lld memset, %lld nvtx, %lld osrt, "
        "%lld strings in %.1f s\n",
        out->c_str(), static_cast<long long>(r.kernels), static_cast<long long>(r.api),
        static_cast<long long>(r.memcpy), static_cast<long long>(r.memset),
        static_cast<long long>(r.nvtx), static_cast<long long>(r.osrt),
        static_cast<long long>(counts->strings), secs);
  }
  return OkStatus();
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Result<cli::ParsedFlags> flags = cli::ParseFlags("gen_report", Specs(), args, false);
  if (!flags.ok()) {
    std::fprintf(stderr, "%s\n", flags.status().message().c_str());
    return 2;
  }
  if (flags->Has("help")) {
    std::printf(
        "usage: gsys_gen_report [options] -o FILE\n\nWrites a synthetic gsys report "
        "(nsys-export-compatible SQLite), deterministic for a given --seed.\n\n%s",
        cli::FlagsHelp(Specs()).c_str());
    return 0;
  }
  if (!flags->positionals().empty()) {
    std::fprintf(stderr, "gen_report: unexpected argument '%s'\n", flags->positionals()[0].c_str());
    return 2;
  }
  Status status = Generate(*flags, Join(args, " "));
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.message().c_str());
    return status.code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}

}  // namespace
}  // namespace gsys::bench

int main(int argc, char** argv) { return gsys::bench::Main(argc, argv); }
