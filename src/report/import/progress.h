// SPDX-License-Identifier: Apache-2.0
// Progress: the one-line progress bar imports draw on stderr when it is a TTY ("[1/1] [===  ]
// 12% NAME"), redrawn only when the percentage changes. Shared by the session importer and the
// Kineto trace reader. One thread.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace gsys::report {

class Progress {
 public:
  Progress(bool on, std::string label, uint64_t total)
      : on_(on && isatty(2)), label_(std::move(label)), total_(total ? total : 1) {}
  // `done` of `total` units; 100% ends the line.
  void Update(uint64_t done) {
    if (!on_) return;
    if (done > total_) done = total_;
    int pct = static_cast<int>(done * 100 / total_);
    if (pct == last_) return;
    last_ = pct;
    std::string bar(static_cast<size_t>(pct) / 4, '=');
    bar.resize(25, ' ');
    std::fprintf(stderr, "\r[1/1] [%s%3d%%] %s", bar.c_str(), pct, label_.c_str());
    if (pct == 100) std::fputc('\n', stderr);
  }

 private:
  bool on_;
  std::string label_;
  uint64_t total_;
  int last_ = -1;
};

}  // namespace gsys::report
