// SPDX-License-Identifier: Apache-2.0
// The NVTX name registry of one process: domains (one per name), registered strings (one
// handle per text and domain) and category names. Every new registration is emitted as a
// record, and kept in an mmap'd arena in wire format, indexed by a hash table
// (nvtx_name_table.h), so a lookup is O(1) and a forked child still sees (and can replay)
// the names its events refer to.
//
// Strings arrive already cut at format::kMaxTextBytes on a UTF-8 boundary (nvtx_text.h);
// `cut` says whether they were, and the registry counts each cut it emits.
//
// Threading: registrations are rare and serialized by a spin lock; a registration from a
// signal handler that interrupted one on the same thread returns the failure value instead
// of waiting for itself. Handle checks and the capture-range trigger read only atomics.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/record.h"

namespace gsys::capture {

bool NvtxRegistryInit();
// Domain id for `name` (>= 1), creating it on first use; 0 on failure (default domain).
uint32_t NvtxRegistryDomain(const char* name, size_t len, bool cut);
// The handle (>= 1) of `text` in `domain`, registering it on first use; 0 on failure.
uint64_t NvtxRegistryString(uint32_t domain, const char* text, size_t len, bool cut);
// Names `category` of `domain`; a name it already has is not emitted again.
void NvtxRegistryCategory(uint32_t domain, uint32_t category, const char* name, size_t len,
                          bool cut);
// The domain id a handle stands for: the handle's value when this process created that
// domain, else 0 (NULL and handles never returned count as the default domain).
uint32_t NvtxRegistryDomainOf(uintptr_t handle);
// Whether `handle` is a registered-string handle this process returned.
bool NvtxRegistryStringKnown(uint64_t handle);
// The name of domain `id` (kind kNvtxDomainCreate) or the text of registered string `id`
// (kNvtxRegisterString), cut to `cap` - 1 bytes and NUL-terminated; returns its length (0: none).
// A linear walk of the arena: for cold paths only (an unmatched capture-range trigger).
size_t NvtxRegistryNameOf(format::RecordKind kind, uint64_t id, char* out, size_t cap);
// Copies the arena (whole records) into `out`; returns bytes copied.
size_t NvtxRegistryCopy(uint8_t* out, size_t cap);
void NvtxRegistryForkPrepare();
void NvtxRegistryForkDone();
// Fuzzers and tests only: forgets every name and handle (a fresh process's registry).
void NvtxRegistryResetForTesting();

// Trigger support: whether `domain`/registered `string_id` match GSYS_NVTX_CAPTURE.
bool NvtxTriggerDomainMatches(uint32_t domain);
bool NvtxTriggerStringMatches(uint64_t string_id);

}  // namespace gsys::capture
