// SPDX-License-Identifier: Apache-2.0
// ControlFile: the launcher's side of the control page (format/control_page.h). Creates
// SESSION_DIR/control before the target starts and keeps it mapped; the injected library of
// every process maps the same file.
//
// Threading: one thread (the launcher's loop). The page itself is shared with the target tree.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "format/control_page.h"

namespace gsys::serving {

// A range an armed NVTX trigger saw and did not match ("NAME@DOMAIN", or NAME in the default
// domain).
struct SeenRange {
  std::string name;
  bool registered = false;  // a registered string (else a plain one)
};

class ControlFile {
 public:
  // Creates DIR/control with `recording` as the initial state; `arm_trigger`: a session-wide
  // NVTX capture range is armed (-c nvtx).
  static Result<ControlFile> Create(const std::string& session_dir, bool recording,
                                    bool arm_trigger);
  ControlFile(ControlFile&& other) noexcept;
  ControlFile& operator=(ControlFile&&) = delete;
  ~ControlFile();

  void SetRecording(bool on);
  bool recording() const;
  // Calls on_window(start_ns, end_ns) once for every range-opened window that closed since the
  // last call (oldest first). With `include_open`, a window still open is reported as ending at
  // `now_ns` (the tree exited inside it).
  // Windows capture ranges have opened so far (0: the range never opened).
  uint64_t range_windows_opened() const;
  // Arms the session-wide NVTX trigger (`gsys start -c nvtx`); the tree matches it only when
  // it was started with -p/--nvtx-capture.
  void ArmTrigger();
  // Disarms it; false (and nothing changed) while a range holds a window open: only the range's
  // end closes that window cleanly.
  bool DisarmTrigger();
  bool trigger_armed() const;
  // The unmatched ranges the tree saw while the trigger was armed, distinct, in the order they
  // were first seen; `more` (optional) says whether the tree saw more than the page keeps.
  std::vector<SeenRange> SeenRanges(bool* more = nullptr) const;
  void PollRangeWindows(const std::function<void(int64_t, int64_t)>& on_window,
                        bool include_open = false, int64_t now_ns = 0);

 private:
  explicit ControlFile(format::ControlPage* page) : page_(page) {}
  format::ControlPage* page_ = nullptr;
  uint64_t seen_ = 0;
};

}  // namespace gsys::serving
