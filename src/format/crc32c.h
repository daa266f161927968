// SPDX-License-Identifier: Apache-2.0
// CRC-32C (Castagnoli) used for chunk checksums. Uses the SSE4.2 instruction when the CPU has
// it, a table otherwise. Async-signal-safe (no allocation, no locks).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::format {

// CRC-32C of `size` bytes at `data`, continuing from `crc` (0 to start).
uint32_t Crc32c(const void* data, size_t size, uint32_t crc = 0);

}  // namespace gsys::format
