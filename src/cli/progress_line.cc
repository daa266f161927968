// SPDX-License-Identifier: Apache-2.0
#include "cli/progress_line.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "cli/output.h"

namespace gsys::cli {
namespace {

bool StderrIsTerminal() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDERR_FILENO) && !(term != nullptr && std::strcmp(term, "dumb") == 0);
}

}  // namespace

ProgressLine::ProgressLine(bool wanted, size_t steps)
    : on_(wanted && steps > 1 && StderrIsTerminal()), steps_(steps) {}

ProgressLine::~ProgressLine() {
  if (on_ && drawn_ > 0) PrintErr("\r" + std::string(drawn_, ' ') + "\r");
}

void ProgressLine::Done(std::string_view name) {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(mu_);
  ++done_;
  std::string line =
      "[" + std::to_string(done_) + "/" + std::to_string(steps_) + "] " + std::string(name);
  if (line.size() > 78) line.resize(78);  // one terminal line, or \r cannot redraw it
  size_t shown = line.size();
  if (shown < drawn_) line += std::string(drawn_ - shown, ' ');
  PrintErr("\r" + line);
  drawn_ = shown;
}

}  // namespace gsys::cli
