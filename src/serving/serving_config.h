// SPDX-License-Identifier: Apache-2.0
// Serving-mode configuration (`gsys wrap`): the GSYS_PROFILE* environment variables and their
// aliases from DJL Serving's LMI containers (LMI_DEBUG_*) and the original proposal (NSYS_*,
// S3_DEBUG_PATH). Documented variable by variable in docs/serving.md.
//
// ParseServingEnv is a pure function of the variables it is given (no getenv, no I/O), so it can
// be unit-tested alias by alias and fuzzed: any input gives a config or one error naming the
// variable, never a crash.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::serving {

struct ServingConfig {
  bool enabled = false;
  double delay_s = 30;                   // first window opens this long after the server starts
  double duration_s = 600;               // each window lasts this long
  double repeat_s = 0;                   // > 0: a new window every repeat_s (start to start)
  std::string trace = "cuda,nvtx,osrt";  // as given; parsed by the CLI's capture options
  std::string trace_variable = "GSYS_PROFILE_TRACE";  // the variable it came from
  std::string output;                                 // "" = current directory, default names
  bool output_is_dir = true;
  std::string upload;   // "" or "s3://bucket/prefix/" / "file:///abs/dir/" (ends with '/')
  int kill_signal = 0;  // sent to the server when the (only) window ends; 0 = keep serving
  std::vector<std::string> profile_args;  // GSYS_PROFILE_ARGS, split on blanks
  double shutdown_timeout_s = 20;         // bound on finalizing + uploading after SIGTERM/SIGINT
};

struct ParsedServingEnv {
  ServingConfig config;
  // One line each: conflicts, ignored variables (printed as warnings
  // or notes by the caller, prefixed "gsys wrap: ").
  std::vector<std::string> messages;
};

using EnvMap = std::map<std::string, std::string>;

// Reads the serving variables from `env`. Errors name the variable ("gsys wrap: GSYS_PROFILE:
// 'maybe' is not a boolean ...").
Result<ParsedServingEnv> ParseServingEnv(const EnvMap& env);

// GSYS_PROFILE's truthiness: 1/true/yes/on (any case) -> true; ""/0/false/no/off -> false;
// anything else -> nullopt.
std::optional<bool> ParseSwitch(const std::string& value);

// The rank of this process from RANK, LOCAL_RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID
// (first set, in that order); "" when none is set.
std::string RankFromEnv(const EnvMap& env);

}  // namespace gsys::serving
