// SPDX-License-Identifier: Apache-2.0
#include "serving/control_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "format/session_files.h"

namespace gsys::serving {

Result<ControlFile> ControlFile::Create(const std::string& session_dir, bool recording,
                                        bool arm_trigger) {
  std::string path = session_dir + "/" + format::kControlFileName;
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Error(StatusCode::kIoError, "cannot create '" + path + "': " + std::strerror(errno));
  }
  void* p = MAP_FAILED;
  if (ftruncate(fd, format::kControlPageBytes) == 0) {
    p = mmap(nullptr, format::kControlPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  int err = errno;
  close(fd);
  if (p == MAP_FAILED) {
    return Error(StatusCode::kIoError, "cannot map '" + path + "': " + std::strerror(err));
  }
  auto* page = static_cast<format::ControlPage*>(p);  // zero-filled by ftruncate
  page->recording.store(recording ? 1 : 0);
  page->trigger.store(arm_trigger ? format::kTriggerArmed : format::kTriggerNone);
  page->version = format::kControlVersion;
  // The magic last: a process that reads it sees a fully initialized page.
  std::atomic_thread_fence(std::memory_order_release);
  page->magic = format::kControlMagic;
  return ControlFile(page);
}

ControlFile::ControlFile(ControlFile&& other) noexcept : page_(other.page_), seen_(other.seen_) {
  other.page_ = nullptr;
}

ControlFile::~ControlFile() {
  if (page_ != nullptr) munmap(page_, format::kControlPageBytes);
}

void ControlFile::SetRecording(bool on) {
  page_->recording.store(on ? 1 : 0, std::memory_order_release);
}

bool ControlFile::recording() const {
  return page_->recording.load(std::memory_order_acquire) != 0;
}

uint64_t ControlFile::range_windows_opened() const {
  return page_->windows_opened.load(std::memory_order_acquire);
}

void ControlFile::ArmTrigger() {
  page_->trigger.store(format::kTriggerArmed, std::memory_order_release);
}

bool ControlFile::DisarmTrigger() {
  uint32_t t = page_->trigger.load(std::memory_order_acquire);
  while (t != format::kTriggerActive) {
    if (page_->trigger.compare_exchange_weak(t, format::kTriggerNone, std::memory_order_acq_rel)) {
      return true;
    }
  }
  return false;
}

bool ControlFile::trigger_armed() const {
  uint32_t t = page_->trigger.load(std::memory_order_acquire);
  return t == format::kTriggerArmed || t == format::kTriggerActive;
}

std::vector<SeenRange> ControlFile::SeenRanges(bool* more) const {
  std::vector<SeenRange> out;
  uint32_t claimed = page_->seen_claimed.load(std::memory_order_acquire);
  if (more != nullptr) *more = claimed > format::kControlSeenSlots;
  for (uint32_t i = 0; i < claimed && i < format::kControlSeenSlots; ++i) {
    const format::ControlSeenName& s = page_->seen[i];
    if (s.hash.load(std::memory_order_acquire) == 0) continue;  // claimed, not written yet
    size_t len = s.len < format::kControlSeenTextBytes ? s.len : format::kControlSeenTextBytes;
    SeenRange r{std::string(s.text, len), s.registered != 0};
    bool dup = false;  // two processes may add the same name at the same time
    for (const auto& o : out) dup = dup || (o.name == r.name && o.registered == r.registered);
    if (!dup) out.push_back(std::move(r));
  }
  return out;
}

void ControlFile::PollRangeWindows(const std::function<void(int64_t, int64_t)>& on_window,
                                   bool include_open, int64_t now_ns) {
  uint64_t closed = page_->windows_closed.load(std::memory_order_acquire);
  uint64_t opened = page_->windows_opened.load(std::memory_order_acquire);
  uint64_t last = include_open ? opened : closed;
  // A window older than the ring was overwritten: skip to what the ring still holds.
  if (last > seen_ + format::kControlRingSize) seen_ = last - format::kControlRingSize;
  for (; seen_ < last; ++seen_) {
    const format::ControlWindow& w = page_->ring[seen_ % format::kControlRingSize];
    int64_t start = w.start_ns.load(std::memory_order_relaxed);
    int64_t end = w.end_ns.load(std::memory_order_relaxed);
    if (end == 0) end = now_ns;
    on_window(start, end);
  }
}

}  // namespace gsys::serving
