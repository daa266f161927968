// SPDX-License-Identifier: Apache-2.0
// ProgressLine: "[i/n] NAME" on stderr while a verb of several steps works (the reports of
// `stats`, the rules of `analyze`, the parts of `summary`), numbered as nsys numbers its steps.
// Redrawn in place and erased when done, so the verb's own output starts on a clean line; drawn
// only when stderr is a terminal (never into a pipe or a file) and the verb is not --quiet.
// Thread-safe: worker threads report the steps they finish.
#pragma once

#include <cstddef>
#include <mutex>
#include <string_view>

namespace gsys::cli {

class ProgressLine {
 public:
  // `wanted`: not --quiet; the line is drawn only if stderr is also a terminal.
  ProgressLine(bool wanted, size_t steps);
  ~ProgressLine();  // erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Step `name` is done: "[done/steps] name".
  void Done(std::string_view name);
  bool on() const { return on_; }

 private:
  const bool on_;
  const size_t steps_;
  std::mutex mu_;
  size_t done_ = 0;
  size_t drawn_ = 0;  // length of the line on screen
};

}  // namespace gsys::cli
