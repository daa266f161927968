// SPDX-License-Identifier: Apache-2.0
// The signal state gsys itself inherited (dispositions and blocked mask), handed on unchanged
// to the target: a `nohup` or `cmd &` job ignores SIGHUP/SIGINT/SIGQUIT bare and must ignore
// them under gsys too. gsys blocks and waits for signals while it runs, so without this the
// target would inherit gsys's own mask and any disposition gsys set for itself.
//
// Threading: SnapshotInheritedSignals runs once, first thing in main, before gsys changes any
// signal state; RestoreInheritedSignals runs in the forked child just before exec (it only
// makes async-signal-safe calls).
#pragma once

namespace gsys::launcher {

// Records every signal's disposition (ignored or not) and the blocked mask as gsys received
// them. Later calls do nothing.
void SnapshotInheritedSignals();

// In a forked child before exec: every signal ignored in the snapshot is ignored, every other
// one is at its default, and the blocked mask is the snapshot's. Without a snapshot it sets
// the default dispositions of SIGINT/SIGTERM/SIGHUP/SIGCHLD/SIGTTOU/SIGTTIN and keeps the mask.
void RestoreInheritedSignals();

}  // namespace gsys::launcher
