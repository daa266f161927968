// SPDX-License-Identifier: Apache-2.0
// `gsys recipe`: output-name pattern, progress bar and terminal summary.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>

#include "cli/output.h"
#include "cli/recipe_command.h"
#include "common/one_line.h"
#include "common/output_path.h"
#include "common/strings.h"

namespace gsys::cli {

namespace {

// Expands every pattern item; %q{} values come from `values`.
Result<std::string> ExpandRecipePattern(const std::string& pattern, int64_t n,
                                        const ValueLookup& values) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    char c = pattern[++i];
    if (c == '%') {
      out += '%';
    } else if (c == 'h') {
      char host[HOST_NAME_MAX + 1] = {};
      ::gethostname(host, sizeof(host) - 1);
      out += host;
    } else if (c == 'p') {
      out += std::to_string(::getpid());
    } else if (c == 'n') {
      out += std::to_string(n);
    } else if (c == 'q' && i + 1 < pattern.size() && pattern[i + 1] == '{') {
      size_t close = pattern.find('}', i);
      if (close == std::string::npos) {
        return Error(StatusCode::kInvalidArgument,
                     "recipe: --output: unterminated %q{ in '" + pattern + "'");
      }
      std::string var = pattern.substr(i + 2, close - i - 2);
      const char* value = values ? values(var) : nullptr;
      if (!value) {
        return Error(StatusCode::kInvalidArgument,
                     "recipe: --output: environment variable '" + var + "' is not set");
      }
      out += value;
      i = close;
    } else {
      return Error(StatusCode::kInvalidArgument, "recipe: --output: unknown pattern '%" +
                                                     std::string(1, c) + "' in '" + pattern +
                                                     "' (expected %q{ENV}, %h, %p, %n, %%)");
    }
  }
  return out;
}

}  // namespace

Result<std::string> ExpandOutputPattern(const std::string& pattern) {
  // %q{} values must not move the output directory (common/output_path.h); %n picks the first
  // free name of the checked pattern.
  ValueLookup env = [](const std::string& name) { return std::getenv(name.c_str()); };
  OutputPathRules rules{"recipe: bad --output '" + pattern + "'", ""};
  auto resolve = [&](int64_t n) {
    PatternExpander expand = [&](const ValueLookup& values) {
      return ExpandRecipePattern(pattern, n, values);
    };
    return ResolveOutputPath(expand, env, rules);
  };
  if (pattern.find("%n") == std::string::npos) return resolve(0);
  for (int64_t n = 1;; ++n) {
    GSYS_ASSIGN_OR_RETURN(std::string path, resolve(n));
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return path;
  }
}

std::function<void(size_t, size_t)> MakeProgress(bool quiet) {
  if (quiet || !::isatty(STDERR_FILENO)) return nullptr;
  return [](size_t done, size_t total) {
    constexpr size_t kWidth = 30;
    size_t filled = total ? done * kWidth / total : kWidth;
    std::string bar(filled, '=');
    if (filled < kWidth) bar += '>' + std::string(kWidth - filled - 1, ' ');
    PrintErr("\r[" + bar + "] " + std::to_string(done) + "/" + std::to_string(total) + " steps");
  };
}

void FinishProgress(bool quiet) {
  if (!quiet && ::isatty(STDERR_FILENO)) PrintErr("\r" + std::string(60, ' ') + "\r");
}

std::string RecipeSummaryText(const analysis::recipe::Recipe& recipe,
                              const analysis::recipe::RecipeRun& run, const std::string& dir,
                              const std::vector<std::string>& files) {
  size_t skipped = 0;
  std::string skipped_lines;
  for (const auto& r : run.ranks) {
    if (!r.skipped) continue;
    ++skipped;
    skipped_lines += "  SKIPPED rank " + std::to_string(r.rank) +
                     (r.set ? " of set " + std::to_string(r.set) : std::string()) + " (" +
                     OneLine(r.file) + "): " + OneLine(r.skip_reason, 2048) + "\n";
  }
  std::string text = "recipe " + recipe.name() + ": " + std::to_string(run.ranks.size()) +
                     " report(s)" +
                     (skipped ? ", " + std::to_string(skipped) + " skipped" : std::string()) +
                     "\n" + skipped_lines;
  for (const std::string& note : run.notes) text += "  note: " + OneLine(note, 2048) + "\n";
  for (const std::string& line : run.result.summary) text += "  " + OneLine(line, 2048) + "\n";
  text +=
      "  output: " + OneLine(AbsolutePath(dir)) + "/ (" + OneLine(Join(files, ", "), 4096) + ")\n";
  return text;
}

}  // namespace gsys::cli
