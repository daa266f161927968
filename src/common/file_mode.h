// SPDX-License-Identifier: Apache-2.0
// The mode a new file gets from open(2) under the process's umask, for files that are written
// to a private temporary first (mkstemp: 0600) and then given their final mode. A fixed 0644
// there made every export, stats, analyze and summary output world-readable under umask 077,
// beside the 0600 report it was made from.
#pragma once

#include <sys/types.h>

namespace gsys {

// The process's umask, read without changing it (/proc/self/status; umask(2) can only be read
// by setting it, which races with threads creating files). 077 when it cannot be read, so that
// a failure never widens access.
mode_t CurrentUmask();

// `mode` (0666 for a file, 0777 for a directory) less the bits the umask removes.
mode_t ModeUnderUmask(mode_t mode);

}  // namespace gsys
