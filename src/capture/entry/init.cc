// SPDX-License-Identifier: Apache-2.0
// Library lifecycle: init at load, fork handlers, exit flush, crash handlers.
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>

#include "capture/capture_domain.h"
#include "capture/clock/clock.h"
#include "capture/entry/context.h"
#include "capture/entry/crash_handlers.h"
#include "capture/entry/log.h"
#include "capture/entry/process_vars.h"
#include "capture/entry/signal_shadow.h"
#include "capture/sink/sink.h"

namespace gsys::capture {
namespace {

Context g_context;
std::atomic<bool> g_init_lock{false};

void ForEachDomain(void (*fn)(CaptureDomain*)) {
  int count = 0;
  CaptureDomain* const* domains = AllCaptureDomains(&count);
  for (int i = 0; i < count; ++i) {
    if (domains[i]->Enabled(g_context.config)) fn(domains[i]);
  }
}

void OnForkPrepare() {
  ForEachDomain([](CaptureDomain* d) { d->OnForkPrepare(); });
  SinkForkPrepare();
}

void OnForkParent() {
  SinkForkParent();
  ForEachDomain([](CaptureDomain* d) { d->OnForkParent(); });
}

void OnForkChild() {
  SignalShadowForkChild();
  g_context.stream_id = MonotonicNs();
  SinkForkChild(g_context.stream_id);
  if (g_context.active) RecordProcessVars(g_context.config, g_context.stream_id);
  ForEachDomain([](CaptureDomain* d) { d->OnForkChild(); });
  LogVerbose("forked child, new stream %lld", static_cast<long long>(g_context.stream_id));
}

void OnExit() { FinalFlush(); }

}  // namespace

Context& CaptureContext() { return g_context; }

void FinalFlush() {
  if (!g_context.active) return;
  ForEachDomain([](CaptureDomain* d) { d->FlushPending(); });
  SinkFlush(true);
}

bool EnsureInitialized() {
  if (g_context.initialized.load(std::memory_order_acquire)) return g_context.active;
  while (g_init_lock.exchange(true, std::memory_order_acquire)) {
  }
  if (!g_context.initialized.load(std::memory_order_relaxed)) {
    ++t_thread.guard;
    CaptureConfig& c = g_context.config;
    ReadCaptureConfig(&c);
    SetVerboseLogging(c.log);
    if (c.enabled) {
      ChooseTickClock(c.allow_tsc);
      g_context.stream_id = MonotonicNs();
      // With a control page the launcher owns `recording` (and the NVTX trigger state).
      bool shared = MapControlPage(c.session_dir);
      if (shared) c.cuda.session_recording = &g_control.recording;
      if (SinkInit(c, g_context.stream_id)) {
        g_context.active = true;
        RecordProcessVars(c, g_context.stream_id);
        if (!shared) SetRecordingFlag(!c.nvtx_trigger && !c.cuda.profiler_api_range);
        ForEachDomain([](CaptureDomain* d) { d->Start(g_context.config); });
        pthread_atfork(OnForkPrepare, OnForkParent, OnForkChild);
        std::atexit(OnExit);
        InstallCrashHandlers();
        LogVerbose("capture active: session %s", c.session_dir);
      } else {
        LogAlways("capture disabled: cannot start the writer");
      }
    }
    --t_thread.guard;
    g_context.initialized.store(true, std::memory_order_release);
  }
  g_init_lock.store(false, std::memory_order_release);
  return g_context.active;
}

}  // namespace gsys::capture

__attribute__((constructor)) static void GsysCaptureConstructor() {
  gsys::capture::EnsureInitialized();
}

__attribute__((destructor)) static void GsysCaptureDestructor() { gsys::capture::FinalFlush(); }
