// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_events.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "capture/clock/clock.h"
#include "capture/entry/context.h"
#include "capture/nvtx/nvtx_registry.h"
#include "capture/nvtx/nvtx_text.h"
#include "capture/nvtx/nvtx_trigger_seen.h"
#include "capture/sink/sink.h"
#include "format/record.h"
#include "format/session_files.h"

namespace gsys::capture {
namespace {

using format::NvtxEventBody;
using format::RecordKind;

std::atomic<uint64_t> g_next_range_id{1};
__thread int t_depth __attribute__((tls_model("initial-exec"))) = 0;

// Capture-range trigger state: session-wide, in the control page (a range in one process opens
// the window for the whole tree, as nsys's -c nvtx does). The domain of the opening push is
// only compared in the process that owns the trigger (its tid), so it stays process-local.
constexpr uint32_t kNoTrigger = format::kTriggerNone, kArmed = format::kTriggerArmed,
                   kActive = format::kTriggerActive, kDone = format::kTriggerDone;
std::atomic<uint32_t>& g_trigger = g_control.trigger;
std::atomic<uint32_t> g_trigger_domain{0};

uint32_t SelfPid() { return SinkPid(); }

struct Message {
  const char* text = nullptr;  // UTF-8, `len` bytes (cut at the cap)
  uint32_t len = 0;
  bool cut = false;               // `text` was cut at the cap
  uint64_t registered = 0;        // a registered-string handle this process returned
  const wchar_t* wide = nullptr;  // a UNICODE message, converted only when emitted
};

// The caller's attributes as far as its `size` covers them: a struct shorter than ours (an
// older or careless caller) is read field by field, never past `size`, and a field it does
// not cover is absent (zero: unknown color, payload and message types). `version` is not
// checked: the layout only ever grows, and `size` says how much of it the caller filled.
const nvtxEventAttributes_t* Covered(const nvtxEventAttributes_t* attr,
                                     nvtxEventAttributes_t* copy) {
  if (attr == nullptr || attr->size >= sizeof(nvtxEventAttributes_t)) return attr;
  std::memset(copy, 0, sizeof(*copy));
  const size_t n = attr->size;
#define GSYS_NVTX_COPY_(field)                                             \
  if (offsetof(nvtxEventAttributes_t, field) + sizeof(attr->field) <= n) { \
    std::memcpy(&copy->field, &attr->field, sizeof(attr->field));          \
  }
  GSYS_NVTX_COPY_(category)
  GSYS_NVTX_COPY_(colorType)
  GSYS_NVTX_COPY_(color)
  GSYS_NVTX_COPY_(payloadType)
  GSYS_NVTX_COPY_(payload)
  GSYS_NVTX_COPY_(messageType)
  GSYS_NVTX_COPY_(message)
#undef GSYS_NVTX_COPY_
  return copy;
}

// `attr` is already Covered().
Message ReadMessage(const nvtxEventAttributes_t* attr, const char* text) {
  Message m;
  if (attr == nullptr) {
    m.text = text;
  } else if (attr->messageType == NVTX_MESSAGE_TYPE_ASCII) {
    m.text = attr->message.ascii;
  } else if (attr->messageType == NVTX_MESSAGE_TYPE_UNICODE) {
    m.wide = attr->message.unicode;
  } else if (attr->messageType == NVTX_MESSAGE_TYPE_REGISTERED) {
    uint64_t h = reinterpret_cast<uintptr_t>(attr->message.registered);
    // A handle never returned would name nothing in the report: an unnamed event instead.
    if (NvtxRegistryStringKnown(h)) m.registered = h;
  }  // any other type (unknown, or an extension's): an unnamed event
  if (m.text != nullptr) {
    m.len = static_cast<uint32_t>(NvtxTextLength(m.text, format::kMaxTextBytes, &m.cut));
  }
  return m;
}

void FillBody(NvtxEventBody* b, int64_t ts, uint32_t domain, const nvtxEventAttributes_t* attr,
              const Message& m) {
  b->timestamp = ts;
  b->id = 0;
  b->domain = domain;
  b->payload = 0;
  b->category = 0;
  b->color = 0;
  b->payload_type = 0;
  b->has_color = 0;
  b->reserved = 0;
  b->text_len = m.len;
  if (m.registered != 0) {
    b->message_type = static_cast<uint8_t>(format::NvtxMessage::kRegistered);
    b->id = m.registered;
  } else {
    bool text = m.text != nullptr || m.wide != nullptr;
    b->message_type =
        static_cast<uint8_t>(text ? format::NvtxMessage::kText : format::NvtxMessage::kNone);
  }
  if (attr != nullptr) {
    b->category = attr->category;
    if (attr->colorType == NVTX_COLOR_ARGB) {
      b->color = attr->color;
      b->has_color = 1;
    }
    if (attr->payloadType >= NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 &&
        attr->payloadType <= NVTX_PAYLOAD_TYPE_FLOAT) {
      b->payload_type = static_cast<uint8_t>(attr->payloadType);
      std::memcpy(&b->payload, &attr->payload, sizeof(b->payload));
    }
  }
}

// A UNICODE message: converted on a stack buffer of the cap's size, which only this rare path
// pays for (the hot paths keep small frames).
__attribute__((noinline, cold)) void EmitWide(RecordKind kind, NvtxEventBody* b,
                                              const wchar_t* wide) {
  char text[format::kMaxTextBytes + 1];
  bool cut = false;
  b->text_len = static_cast<uint32_t>(WideToUtf8(wide, text, sizeof(text), &cut));
  EmitRecord(kind, *b, text, b->text_len);
  if (cut) NvtxCountTruncation();
}

// Emits an event whose body FillBody() filled; a start's `b->id` holds the range id.
void EmitEvent(RecordKind kind, NvtxEventBody* b, const Message& m) {
  if (m.registered != 0) {
    if (kind == RecordKind::kNvtxStart) {
      // `id` holds the range id, so a registered handle travels as 8 bytes after the body.
      b->text_len = sizeof(uint64_t);
      EmitRecord(kind, *b, reinterpret_cast<const char*>(&m.registered), sizeof(uint64_t));
    } else {
      EmitRecord(kind, *b);
    }
  } else if (m.wide != nullptr) {
    EmitWide(kind, b, m.wide);
  } else {
    EmitRecord(kind, *b, m.text, m.len);
    if (m.cut) NvtxCountTruncation();
  }
}

__attribute__((noinline, cold)) bool WideEquals(const wchar_t* wide, const char* utf8) {
  char text[format::kMaxTextBytes + 1];
  bool cut = false;
  WideToUtf8(wide, text, sizeof(text), &cut);
  return !cut && std::strcmp(text, utf8) == 0;
}

bool TriggerMatches(uint32_t domain, const Message& m) {
  if (!NvtxTriggerDomainMatches(domain)) return false;
  if (m.registered != 0) return NvtxTriggerStringMatches(m.registered);
  const CaptureConfig& c = CaptureContext().config;
  if (c.trigger_registered_only) return false;
  if (m.wide != nullptr) return WideEquals(m.wide, c.trigger_range);
  return m.text != nullptr && std::strncmp(m.text, c.trigger_range, m.len) == 0 &&
         c.trigger_range[m.len] == '\0';
}

void EmitWindow(bool started) {
  format::CaptureWindowBody body{NowTicks(), started ? 1u : 0u,
                                 static_cast<uint32_t>(format::CaptureReason::kNvtxRange)};
  EmitRecord(RecordKind::kCaptureWindow, body);
}

// Opens the capture window when an armed trigger matches a range being opened.
void MaybeOpen(uint32_t domain, const Message& m, bool is_push, uint64_t range_id) {
  if (!TriggerMatches(domain, m)) {
    NvtxTriggerNoteMiss(domain, m.text, m.len, m.registered, m.wide);
    return;
  }
  uint32_t expected = kArmed;
  if (!g_trigger.compare_exchange_strong(expected, kActive)) return;
  g_trigger_domain.store(domain);
  g_control.trigger_pid.store(SelfPid());
  if (is_push) {
    g_control.trigger_tid.store(CurrentTid());
    g_control.trigger_range.store(0);
    t_thread.trigger_depth = 0;  // incremented by the push itself
  } else {
    g_control.trigger_tid.store(0);
    g_control.trigger_range.store(range_id);
  }
  ControlOpenRangeWindow();
  EmitWindow(true);
}

void RequestShutdown() {
  const CaptureConfig& c = CaptureContext().config;
  char path[kMaxPathBytes + 64];
  std::snprintf(path, sizeof(path), "%s/%s", c.session_dir, format::kShutdownRequestFile);
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) syscall(SYS_close, fd);
}

// Closes the window after the trigger range ended; re-arms for repeat.
void Close() {
  EmitWindow(false);
  const CaptureConfig& c = CaptureContext().config;
  if (c.range_end == RangeEnd::kNone) {
    g_trigger.store(kDone);
    return;  // keep recording
  }
  ControlCloseRangeWindow();
  int done = static_cast<int>(g_control.ranges_done.fetch_add(1) + 1);
  if (c.range_end == RangeEnd::kRepeat && (c.range_repeat == 0 || done < c.range_repeat)) {
    g_trigger.store(kArmed);
    return;
  }
  g_trigger.store(kDone);
  if (c.range_end == RangeEnd::kStopShutdown) RequestShutdown();
}

inline bool Recording() { return RecordingOn() && InWindow(); }

}  // namespace

void NvtxArmTrigger() {
  if (!ControlPageShared()) g_trigger.store(kArmed);  // else the launcher armed it
}

int NvtxPush(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text) {
  int depth = t_depth++;
  nvtxEventAttributes_t copy;
  attr = Covered(attr, &copy);
  if (__builtin_expect(g_trigger.load(std::memory_order_relaxed) != kNoTrigger, 0)) {
    Message m = ReadMessage(attr, text);
    if (g_trigger.load() == kArmed) MaybeOpen(domain, m, true, 0);
    if (g_trigger.load() == kActive && g_control.trigger_tid.load() == CurrentTid() &&
        g_trigger_domain.load() == domain) {
      ++t_thread.trigger_depth;
    }
  }
  if (!Recording()) return depth;
  int64_t ts = NowTicks();
  Message m = ReadMessage(attr, text);
  NvtxEventBody b;
  FillBody(&b, ts, domain, attr, m);
  EmitEvent(RecordKind::kNvtxPush, &b, m);
  return depth;
}

int NvtxPop(uint32_t domain) {
  int depth = --t_depth;
  if (depth < 0) {
    // Nothing pushed on this thread: NVTX's "error" value, and no record (it would only be
    // an unmatched pop in the report).
    t_depth = 0;
    return -1;
  }
  if (Recording()) {
    int64_t ts = NowTicks();
    format::NvtxPopBody b{ts, domain, 0};
    EmitRecord(RecordKind::kNvtxPop, b);
  }
  if (__builtin_expect(g_trigger.load(std::memory_order_relaxed) == kActive, 0) &&
      g_control.trigger_tid.load() == CurrentTid() && g_trigger_domain.load() == domain &&
      --t_thread.trigger_depth == 0) {
    Close();
  }
  return depth;
}

uint64_t NvtxStart(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text) {
  uint64_t id = g_next_range_id.fetch_add(1, std::memory_order_relaxed);
  nvtxEventAttributes_t copy;
  attr = Covered(attr, &copy);
  if (__builtin_expect(g_trigger.load(std::memory_order_relaxed) == kArmed, 0)) {
    Message m = ReadMessage(attr, text);
    MaybeOpen(domain, m, false, id);
  }
  if (!Recording()) return id;
  int64_t ts = NowTicks();
  Message m = ReadMessage(attr, text);
  NvtxEventBody b;
  FillBody(&b, ts, domain, attr, m);
  b.id = id;
  EmitEvent(RecordKind::kNvtxStart, &b, m);
  return id;
}

void NvtxEnd(uint32_t domain, uint64_t id) {
  (void)domain;
  // An id no start returned ends nothing: no record (it would only be an unmatched end).
  if (id == 0 || id >= g_next_range_id.load(std::memory_order_relaxed)) return;
  if (Recording()) {
    int64_t ts = NowTicks();
    format::NvtxEndBody b{ts, id};
    EmitRecord(RecordKind::kNvtxEnd, b);
  }
  if (__builtin_expect(g_trigger.load(std::memory_order_relaxed) == kActive, 0) &&
      g_control.trigger_range.load() == id && g_control.trigger_pid.load() == SelfPid()) {
    Close();
  }
}

void NvtxMark(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text) {
  if (!Recording()) return;
  int64_t ts = NowTicks();
  nvtxEventAttributes_t copy;
  attr = Covered(attr, &copy);
  Message m = ReadMessage(attr, text);
  NvtxEventBody b;
  FillBody(&b, ts, domain, attr, m);
  EmitEvent(RecordKind::kNvtxMark, &b, m);
}

void NvtxNameThread(uint32_t tid, const char* name, size_t len, bool cut) {
  format::ThreadNameBody b{NowTicks(), tid, static_cast<uint16_t>(format::ThreadNameSource::kNvtx),
                           static_cast<uint16_t>(len)};
  EmitRecord(RecordKind::kThreadName, b, name, static_cast<uint32_t>(len));
  if (cut) NvtxCountTruncation();
}

}  // namespace gsys::capture
