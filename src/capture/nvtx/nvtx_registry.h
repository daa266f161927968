// SPDX-License-Identifier: Apache-2.0
// The NVTX name registry of one process: domains (deduplicated by name), registered strings
// and category names. Every registration is emitted as a record, and also kept in an mmap'd
// arena in wire format so a forked child can replay it into its own stream (its events keep
// referring to handles created before the fork).
//
// Threading: registrations are rare and serialized by a spin lock; lookups used by the NVTX
// capture-range trigger read only atomics.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

bool NvtxRegistryInit();
// Domain id for `name` (>= 1), creating it on first use; 0 on failure (default domain).
uint32_t NvtxRegistryDomain(const char* name, size_t len);
// A new registered-string handle (>= 1) for `text` in `domain`.
uint64_t NvtxRegistryString(uint32_t domain, const char* text, size_t len);
void NvtxRegistryCategory(uint32_t domain, uint32_t category, const char* name, size_t len);
// Copies the arena (whole records) into `out`; returns bytes copied.
size_t NvtxRegistryCopy(uint8_t* out, size_t cap);
void NvtxRegistryForkPrepare();
void NvtxRegistryForkDone();

// Trigger support: whether `domain`/registered `string_id` match GSYS_NVTX_CAPTURE.
bool NvtxTriggerDomainMatches(uint32_t domain);
bool NvtxTriggerStringMatches(uint64_t string_id);

}  // namespace gsys::capture
