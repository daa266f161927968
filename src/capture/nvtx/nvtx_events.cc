// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_events.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "capture/clock/clock.h"
#include "capture/entry/context.h"
#include "capture/nvtx/nvtx_registry.h"
#include "capture/sink/sink.h"
#include "format/record.h"

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
  const char* text = nullptr;
  uint32_t len = 0;
  uint64_t registered = 0;
};

Message ReadMessage(const nvtxEventAttributes_t* attr, const char* text, char* scratch,
                    size_t cap) {
  Message m;
  if (attr == nullptr) {
    m.text = text;
  } else if (attr->messageType == NVTX_MESSAGE_TYPE_ASCII) {
    m.text = attr->message.ascii;
  } else if (attr->messageType == NVTX_MESSAGE_TYPE_UNICODE && attr->message.unicode != nullptr) {
    WideToUtf8(attr->message.unicode, scratch, cap);
    m.text = scratch;
  } else if (attr->messageType == NVTX_MESSAGE_TYPE_REGISTERED) {
    m.registered = reinterpret_cast<uintptr_t>(attr->message.registered);
  }
  if (m.text != nullptr) m.len = static_cast<uint32_t>(strnlen(m.text, format::kMaxTextBytes));
  return m;
}

void FillBody(NvtxEventBody* b, int64_t ts, uint32_t domain, const nvtxEventAttributes_t* attr,
              const Message& m) {
  b->timestamp = ts;
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
    b->message_type = static_cast<uint8_t>(m.text ? format::NvtxMessage::kText : format::NvtxMessage::kNone);
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

bool TriggerMatches(uint32_t domain, const Message& m) {
  if (!NvtxTriggerDomainMatches(domain)) return false;
  if (m.registered != 0) return NvtxTriggerStringMatches(m.registered);
  const CaptureConfig& c = CaptureContext().config;
  return !c.trigger_registered_only && m.text != nullptr &&
         std::strncmp(m.text, c.trigger_range, m.len) == 0 && c.trigger_range[m.len] == '\0';
}

void EmitWindow(bool started) {
  format::CaptureWindowBody body{NowTicks(), started ? 1u : 0u,
                                 static_cast<uint32_t>(format::CaptureReason::kNvtxRange)};
  EmitRecord(RecordKind::kCaptureWindow, body);
}

// Opens the capture window when an armed trigger matches a range being opened.
void MaybeOpen(uint32_t domain, const Message& m, bool is_push, uint64_t range_id) {
  if (!TriggerMatches(domain, m)) return;
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
  std::snprintf(path, sizeof(path), "%s/shutdown-request", c.session_dir);
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
  char scratch[512];
  if (__builtin_expect(g_trigger.load(std::memory_order_relaxed) != kNoTrigger, 0)) {
    Message m = ReadMessage(attr, text, scratch, sizeof(scratch));
    if (g_trigger.load() == kArmed) MaybeOpen(domain, m, true, 0);
    if (g_trigger.load() == kActive && g_control.trigger_tid.load() == CurrentTid() &&
        g_trigger_domain.load() == domain) {
      ++t_thread.trigger_depth;
    }
  }
  if (!Recording()) return depth;
  int64_t ts = NowTicks();
  Message m = ReadMessage(attr, text, scratch, sizeof(scratch));
  NvtxEventBody b;
  FillBody(&b, ts, domain, attr, m);
  if (m.registered == 0) b.id = 0;
  EmitRecord(RecordKind::kNvtxPush, b, m.text, m.len);
  return depth;
}

int NvtxPop(uint32_t domain) {
  int depth = --t_depth;
  if (depth < 0) t_depth = 0;
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
  return depth < 0 ? -1 : depth;
}

uint64_t NvtxStart(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text) {
  uint64_t id = g_next_range_id.fetch_add(1, std::memory_order_relaxed);
  char scratch[512];
  if (__builtin_expect(g_trigger.load(std::memory_order_relaxed) == kArmed, 0)) {
    Message m = ReadMessage(attr, text, scratch, sizeof(scratch));
    MaybeOpen(domain, m, false, id);
  }
  if (!Recording()) return id;
  int64_t ts = NowTicks();
  Message m = ReadMessage(attr, text, scratch, sizeof(scratch));
  NvtxEventBody b;
  FillBody(&b, ts, domain, attr, m);
  b.id = id;
  if (m.registered != 0) {
    // `id` holds the range id, so a registered handle travels as 8 bytes after the body.
    b.text_len = sizeof(uint64_t);
    EmitRecord(RecordKind::kNvtxStart, b, reinterpret_cast<const char*>(&m.registered),
               sizeof(uint64_t));
    return id;
  }
  EmitRecord(RecordKind::kNvtxStart, b, m.text, m.len);
  return id;
}

void NvtxEnd(uint32_t domain, uint64_t id) {
  (void)domain;
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
  char scratch[512];
  Message m = ReadMessage(attr, text, scratch, sizeof(scratch));
  NvtxEventBody b;
  FillBody(&b, ts, domain, attr, m);
  if (m.registered == 0) b.id = 0;
  EmitRecord(RecordKind::kNvtxMark, b, m.text, m.len);
}

void NvtxNameThread(uint32_t tid, const char* name) {
  uint32_t len = static_cast<uint32_t>(strnlen(name, 255));
  format::ThreadNameBody b{NowTicks(), tid, static_cast<uint16_t>(format::ThreadNameSource::kNvtx),
                           static_cast<uint16_t>(len)};
  EmitRecord(RecordKind::kThreadName, b, name, len);
}

void WideToUtf8(const wchar_t* in, char* out, size_t cap) {
  size_t n = 0;
  for (; *in != 0; ++in) {
    uint32_t c = static_cast<uint32_t>(*in);
    char buf[4];
    size_t k;
    if (c < 0x80) {
      buf[0] = static_cast<char>(c);
      k = 1;
    } else if (c < 0x800) {
      buf[0] = static_cast<char>(0xC0 | (c >> 6));
      buf[1] = static_cast<char>(0x80 | (c & 0x3F));
      k = 2;
    } else if (c < 0x10000) {
      buf[0] = static_cast<char>(0xE0 | (c >> 12));
      buf[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      buf[2] = static_cast<char>(0x80 | (c & 0x3F));
      k = 3;
    } else {
      buf[0] = static_cast<char>(0xF0 | ((c >> 18) & 0x07));
      buf[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      buf[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      buf[3] = static_cast<char>(0x80 | (c & 0x3F));
      k = 4;
    }
    if (n + k + 1 > cap) break;
    std::memcpy(out + n, buf, k);
    n += k;
  }
  out[n] = '\0';
}

}  // namespace gsys::capture
