// SPDX-License-Identifier: Apache-2.0
// How SQLite opens files in gsys. SQLite opens a report by name, after ReportReader's checks
// looked at that name: a report in a shared directory swapped for a FIFO in between made the
// open wait for a writer for good (`gsys stats`, recipe over a directory), a link to a device
// was read as a database. The unix VFS's open is replaced, once per process, by one that
// never blocks and yields only regular files and directories (SQLite opens directories to
// sync them); anything else fails to open, which SQLite reports as "unable to open".
#pragma once

namespace gsys::report {

// Installs the open above into SQLite's unix VFS (idempotent, thread-safe). Database::Open
// calls it before every open.
void InstallRegularFileOpen();

}  // namespace gsys::report
