// SPDX-License-Identifier: Apache-2.0
// The sink: per-thread ring buffers (ThreadBuffer), the process's writer thread, and the
// flush paths (periodic, exit, fatal signal, fork). Capture domains (nvtx/, osrt/, later
// cupti/) only call EmitRecord() on their hot paths.
//
// Threading: EmitRecord is called by any thread and touches only that thread's buffer
// (acquired on its first record). DrainAll runs on the writer thread every flush interval, on
// demand when a buffer passes half full, and synchronously from exit/_exit/signal handlers;
// a drain lock serializes those, with a bounded wait so a flush never deadlocks its host.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "capture/clock/clock.h"
#include "capture/entry/env.h"
#include "capture/sink/thread_buffer.h"
#include "format/control_page.h"
#include "format/record.h"

namespace gsys::capture {

// Per-thread state. Initial-exec TLS: one memory access, no __tls_get_addr on hot paths.
struct ThreadState {
  ThreadBuffer* buffer;
  uint32_t tid;
  int guard;          // >0 while inside capture code (OS-runtime reentrancy guard)
  bool exited;        // the thread-exit destructor ran: never acquire again
  bool no_buffer;     // the memory limit left no buffer for this thread: count, never retry
  int trigger_depth;  // push depth on the thread that opened an NVTX capture range
};
extern __thread ThreadState t_thread __attribute__((tls_model("initial-exec")));

// The session's control page (format/control_page.h). A page-aligned global: when the session
// has SESSION_DIR/control, MapControlPage() maps that file over it (MAP_SHARED), so every process
// of the tree reads and writes the same `recording` word at a link-time-constant address.
// Without the file it is this process's own page.
extern format::ControlPage g_control;
inline bool RecordingOn() { return g_control.recording.load(std::memory_order_relaxed) != 0; }
inline void SetRecordingFlag(bool on) {
  g_control.recording.store(on ? 1u : 0u, std::memory_order_release);
}
// Maps SESSION_DIR/control over g_control; false (and nothing changed) when the file is missing
// or not a control page of this version.
bool MapControlPage(const char* session_dir);
bool ControlPageShared();
// A capture range (NVTX trigger, cudaProfilerApi) opens/closes the window for the whole session
// and logs its bounds in the control page's ring. Open is a no-op when already recording.
void ControlOpenRangeWindow();
void ControlCloseRangeWindow();
// Stops recording in this process only (capture disabled after an internal error).
void StopRecordingHere();
// -y/-d window in CLOCK_MONOTONIC ns; g_has_window is false without one.
extern bool g_has_window;
extern int64_t g_window_start_ns, g_window_stop_ns;

// Is now inside the -y/-d capture window? (One load when there is no window.)
inline bool InWindow() {
  if (__builtin_expect(!g_has_window, 1)) return true;
  int64_t now = MonotonicNs();
  return now >= g_window_start_ns && now < g_window_stop_ns;
}

uint32_t CurrentTid();
// The pid whose stream the sink writes (differs from getpid() in a vfork child).
uint32_t SinkPid();
ThreadBuffer* AcquireBuffer();
void WakeWriter(ThreadBuffer* buffer);
// The calling thread's own buffer `buffer` is more than half full: wakes the writer, and when
// the writer has not served the previous wake yet and the ring is 3/4 full, moves the thread
// to a buffer twice as large (up to 16x GSYS_BUFFER_BYTES, while all buffers of the process
// stay within half of GSYS_MEMORY_LIMIT_BYTES).
void OnOwnBufferHalfFull(ThreadBuffer* buffer);

// Set once the process's final flush is done (exit, a fatal signal, exec): records emitted
// after it cannot be kept and are counted instead (CountLateRecord, docs/reliability.md P3).
extern std::atomic<bool> g_sink_closed;
// Counts one record emitted after the final flush; returns false (the record is not kept).
bool CountLateRecord();
// exec failed after its final flush: the process goes on, and so does its capture.
void SinkReopenAfterFailedExec();

// Appends one record (header + body + optional text) to this thread's buffer.
// Returns false when the record was dropped (and counted).
template <typename Body>
inline bool EmitRecord(format::RecordKind kind, const Body& body, const char* text = nullptr,
                       uint32_t text_len = 0) {
  if (__builtin_expect(g_sink_closed.load(std::memory_order_relaxed), 0)) return CountLateRecord();
  ThreadBuffer* b = t_thread.buffer;
  if (__builtin_expect(b == nullptr, 0)) {
    b = AcquireBuffer();
    if (b == nullptr) return false;
  }
  const uint32_t size = static_cast<uint32_t>(format::RecordSize(sizeof(Body), text_len));
  uint8_t* p = b->Reserve(size);
  if (__builtin_expect(p == nullptr, 0)) return false;
  format::RecordHeader h{static_cast<uint16_t>(kind), static_cast<uint16_t>(size), t_thread.tid};
  std::memcpy(p, &h, sizeof(h));
  std::memcpy(p + sizeof(h), &body, sizeof(Body));
  if (text_len != 0) std::memcpy(p + sizeof(h) + sizeof(Body), text, text_len);
  if (__builtin_expect(b->Commit(size), 0)) OnOwnBufferHalfFull(b);
  return true;
}

// Lifecycle, called from entry/.
bool SinkInit(const CaptureConfig& config, int64_t stream_id);
// Drains every buffer into the stream file. `final`: also writes counters, thread names and
// the process-end record, and marks the chunk final. Safe from signal handlers.
void SinkFlush(bool final);
void SinkForkPrepare();
void SinkForkParent();
void SinkForkChild(int64_t stream_id);
// Records the registry bytes (NVTX domains, registered strings) a forked child must replay.
void SinkSetReplaySource(size_t (*copy)(uint8_t* out, size_t cap));
// Turns capture off for good after an internal error (GSYS_CAPTURE_FAIL semantics).
void SinkDisable(const char* why);

}  // namespace gsys::capture
