// SPDX-License-Identifier: Apache-2.0
// The loaded-module map the importer symbolizes stack addresses with: one kStackModule record
// per loaded object (path, load bias, address range, GNU build id), emitted once per object.
#pragma once

namespace gsys::capture {

// Emits a record for every object loaded since the last call (dl_iterate_phdr; not for signal
// handlers). Cheap when nothing was loaded: one dl_iterate_phdr step. Thread-safe; a call that
// finds another one running returns at once (that one emits the objects).
void EmitModuleMapIfChanged();

// Forgets what was emitted (a forked child writes a new stream that needs its own map).
void ResetModuleMap();

}  // namespace gsys::capture
