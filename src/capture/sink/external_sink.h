// SPDX-License-Identifier: Apache-2.0
// The sink as seen from another gsys library preloaded next to libgsys-inject.so (today
// libgsys-mpi.so, capture/mpi). That library links neither the sink nor libgsys-inject.so: it
// looks up the one exported C symbol `gsys_capture_sink_api` with dlsym(RTLD_DEFAULT) and, when
// the trace it serves is on, gets this table of entry points. Without gsys in the process (or
// with the trace off) the lookup yields null and the library only forwards calls.
//
// Threading: every entry point may be called from any thread; `emit` appends to the calling
// thread's buffer exactly as sink.h EmitRecord does (drops are counted, never blocking).
#pragma once

#include <cstdint>

extern "C" {

// Bump when an entry point changes meaning; append fields only at the end.
inline constexpr uint32_t kGsysSinkApiVersion = 1;

// Which trace the caller serves; the table is returned only while that trace is on.
inline constexpr uint32_t kGsysSinkApiTraceMpi = 1;

struct GsysSinkApi {
  uint32_t version;  // kGsysSinkApiVersion
  uint32_t size;     // sizeof(GsysSinkApi) as built into libgsys-inject.so
  // Whether a call starting now should be recorded (recording flag and -y/-d window).
  int (*recording)(void);
  // Now, in the stream's timestamp units (capture/clock NowTicks).
  int64_t (*now)(void);
  // Appends one record: `body_size` bytes of body, then `text_len` bytes of text.
  // Returns 0 when the record was dropped.
  int (*emit)(uint16_t kind, const void* body, uint32_t body_size, const char* text,
              uint32_t text_len);
};

// Exported by libgsys-inject.so. Null unless capture is active, `version` matches and `trace`
// was asked for (GSYS_TRACE).
const GsysSinkApi* gsys_capture_sink_api(uint32_t version, uint32_t trace);
typedef const GsysSinkApi* (*GsysSinkApiFn)(uint32_t version, uint32_t trace);

}  // extern "C"
