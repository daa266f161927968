// SPDX-License-Identifier: Apache-2.0
// nsys's -o/--output patterns: %q{VAR} (environment value), %h (host name), %p (target pid),
// %n (smallest positive integer giving a name not yet used), %% (a '%').
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::launcher {

struct OutputNameContext {
  std::string host;
  std::string pid;  // the target's pid, or a placeholder before it is known
  std::function<const char*(const std::string&)> getenv;
  // Whether a candidate base name is taken (for %n).
  std::function<bool(const std::string&)> exists;
  // Deferred parts stay in the result as a pattern ("%p", "%q{NAME}", and every other '%' as
  // "%%"), to be expanded once their values are known: %p once the target runs, %q{} of
  // variables set only inside the process tree per process (profile's per-rank reports).
  bool defer_pid = false;
  std::set<std::string> deferred_vars;
};

// The %q{NAME} variable names of `pattern`, each once, in order (bad %q{ forms are skipped:
// ExpandOutputPattern reports them).
std::vector<std::string> PatternVariables(const std::string& pattern);

// `host` as one portable file-name component for %h: bytes other than letters, digits, '.', '_'
// and '-' become '-', and a name of dots only ("..") becomes dashes. The host name is whatever
// the UTS namespace holds (a container runtime or a job sets it; sethostname(2) takes any
// bytes): "/abs/dir" or "../.." there put the report elsewhere, ESC/CR/LF into its name.
std::string HostNameComponent(const std::string& host);

// Expands `pattern`. Errors (unknown %x, unterminated %q{) name the problem.
Result<std::string> ExpandOutputPattern(const std::string& pattern, const OutputNameContext& ctx);

// `name` without a trailing report extension: ".gsys-rep", or nsys's ".nsys-rep", so that
// `-o run.nsys-rep` (an nsys command line) writes run.gsys-rep, as nsys writes run.nsys-rep.
std::string StripReportExtension(const std::string& name);

// `path` with `extension` appended unless it already ends with it.
std::string WithExtension(const std::string& path, const std::string& extension);

}  // namespace gsys::launcher
