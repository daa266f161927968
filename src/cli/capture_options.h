// SPDX-License-Identifier: Apache-2.0
// The capture options of `gsys profile`, `launch`, `start` and `wrap` (GSYS_PROFILE_ARGS and
// GSYS_PROFILE_TRACE): one typed model. Every option is defined once, in capture_options.cc's
// table, with its names, the verbs that take it, its default, its parser/validator and its help
// text; the verbs read the typed CaptureOptions and never look an option up by name. nsys's
// meaning is kept (../shared/docs/nsys-reference.md §1); options gsys cannot honour are accepted
// and leave one note saying so (docs/differences-from-nsys.md lists them).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "common/status.h"

namespace gsys::cli {

// The verbs that take capture options (a bit each, so an option can name several).
enum class CaptureVerb : unsigned { kProfile = 1, kLaunch = 2, kStart = 4, kWrap = 8 };

const char* CaptureVerbName(CaptureVerb verb);

// The parsed options. Every field holds the option's default when the option is not given.
struct CaptureOptions {
  // What the target records (the target's environment).
  std::vector<std::string> trace;  // domains gsys records (GSYS_TRACE names); empty = none
  int64_t osrt_threshold_ns = 0;
  std::string capture_range;      // "", "nvtx", "cudaProfilerApi"
  std::string nvtx_capture;       // -p RANGE[@DOMAIN], "" = not given
  std::string capture_range_end;  // "" = the verb's own default
  std::string cuda_graph_trace;   // "", "graph", "node"
  bool cuda_memory_usage = false;
  bool cuda_trace_all_apis = false;
  int cuda_flush_ms = 0;       // GSYS_CUDA_FLUSH_MS; 0 = the library's default
  std::string pytorch;         // "", "autograd-nvtx", "autograd-shapes-nvtx"
  std::string cuda_backtrace;  // GSYS_CUDA_BACKTRACE list, "" = off
  bool python_backtrace = false;
  bool sample = false;         // -s process-tree
  int sampling_frequency = 0;  // Hz (also from --sampling-period)
  bool cpuctxsw = false;
  std::vector<std::string> nvtx_domain_include;  // "default" = the unnamed domain
  std::vector<std::string> nvtx_domain_exclude;
  // The target's process.
  std::vector<std::string> env;  // -e, one NAME=VALUE each
  bool inherit_environment = true;
  bool show_output = true;
  bool wait_all = true;  // --wait all
  int kill_signal = 0;   // --kill (0 = none)
  // The collection.
  std::string output;  // -o pattern, "" = the verb's default naming
  bool force_overwrite = false;
  bool stats = false;
  bool quiet = false;                // profile -q: warnings and errors only
  std::vector<std::string> exports;  // --export types (none left out)
  int64_t delay_ns = 0;
  int64_t duration_ns = 0;
  bool stop_on_exit = true;
  bool start_later = false;              // -Y: record nothing until `gsys start`
  std::string session_new;               // --session-new NAME (unexpanded)
  std::vector<int> gpu_metrics_devices;  // with gpu_metrics
  bool gpu_metrics = false;
  int gpu_metrics_frequency = 0;
  // One line each (no verb prefix): values gsys maps onto others, options accepted and ignored.
  std::vector<std::string> notes;

  bool Traces(const std::string& domain) const;
};

// session.meta entries the importer reads back (nvtx_domain_include/-exclude).
void AddImportMeta(const CaptureOptions& o, std::map<std::string, std::string>* meta);

// The flag specs `verb` accepts, in help order (the verb adds its own, e.g. --help, after them).
std::vector<FlagSpec> CaptureFlagSpecs(CaptureVerb verb);

// Reads every capture option of `verb` out of `flags` (parsed with CaptureFlagSpecs(verb) plus
// the verb's own specs), applies the defaults and checks the options against each other.
// Errors are one line starting with the verb ("profile: bad --trace ...").
Result<CaptureOptions> ReadCaptureOptions(CaptureVerb verb, const ParsedFlags& flags);

// The options part of a verb's --help: every option of the verb, with its default.
std::string CaptureOptionsHelp(CaptureVerb verb, const std::vector<FlagSpec>& verb_flags);

}  // namespace gsys::cli
