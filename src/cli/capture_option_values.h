// SPDX-License-Identifier: Apache-2.0
// The value parsers of the capture options (capture_options.cc's table): nsys's spellings in,
// gsys's typed values out. Each returns kInvalidArgument with "bad --FLAG 'VALUE' (expected
// ...)" (no verb prefix; ReadCaptureOptions adds it) and pushes one line into `notes` for a
// value it maps onto another or accepts and ignores.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::cli {

// "bad --FLAG 'VALUE' (expected EXPECTED)".
Status BadValue(const std::string& flag, const std::string& value, const std::string& expected);

// -t/--trace: every nsys value (2025.3.1 and 2026) is accepted. The domains gsys records come
// back in GSYS_TRACE spelling (cublas-verbose -> cublas, cuda-hw/cuda-sw -> cuda; cub*, cudnn,
// cusparse, cusolver, cudla and openacc imply cuda); the others give one note. `lenient`
// (wrap: a server must start) turns a name nsys does not know into that note too.
Result<std::vector<std::string>> ParseTraceList(const std::string& text, bool lenient,
                                                std::vector<std::string>* notes);

// Seconds as a non-negative decimal ("2", "0.5") in ns.
Result<int64_t> ParseSecondsNs(const std::string& flag, const std::string& text);

// A non-negative integer within [lo, hi].
Result<int64_t> ParseIntIn(const std::string& flag, const std::string& text, int64_t lo,
                           int64_t hi);

// --kill: none, sigterm, sigkill or a signal number (1..64); none = 0.
Result<int> ParseKillSignal(const std::string& text);

// --capture-range-end: stop, stop-shutdown, none, repeat[:N], repeat-shutdown:N; nsys 2026's
// `:defer|sync|async` mode suffix is accepted (gsys writes each report at its range's end).
Status ValidateRangeEnd(const std::string& text, std::vector<std::string>* notes);

// --cudabacktrace: the GSYS_CUDA_BACKTRACE value ("" for none).
Result<std::string> ParseCudaBacktrace(const std::string& text);

// --cudabacktrace's default threshold (nsys 2026's documented default; 2025.3.1 used 80000).
inline constexpr int64_t kDefaultCudaBacktraceNs = 1000;

// --gpu-metrics-frequency: nsys's 10..200000 Hz and 2026's k/M suffixes; gsys samples NVML at
// most 1000 times a second, so higher values become 1000 with a note.
Result<int> ParseGpuMetricsFrequency(const std::string& text, std::vector<std::string>* notes);

// A comma list without empty entries.
Result<std::vector<std::string>> ParseNameList(const std::string& flag, const std::string& text);

}  // namespace gsys::cli
