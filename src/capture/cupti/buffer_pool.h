// SPDX-License-Identifier: Apache-2.0
// BufferPool: the host buffers handed to CUPTI. Buffers are allocated once (up to
// `max_buffers`) and recycled, so a long run does not malloc per buffer; when all are in use
// the pool says no and CUPTI drops records (counted), instead of growing without bound.
//
// Threading: Get/Put are called from CUPTI's request/complete callbacks on any thread; a
// mutex guards the free list (taken once per multi-MiB buffer, never per record).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace gsys::capture::cupti {

class BufferPool {
 public:
  BufferPool(size_t buffer_bytes, size_t max_buffers)
      : buffer_bytes_(buffer_bytes), max_buffers_(max_buffers) {}
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A buffer of buffer_bytes() bytes (8-byte aligned), or nullptr when the pool is exhausted.
  uint8_t* Get();
  void Put(uint8_t* buffer);

  size_t buffer_bytes() const { return buffer_bytes_; }
  size_t allocated() const { return allocated_; }
  uint64_t exhausted() const { return exhausted_; }

 private:
  const size_t buffer_bytes_;
  const size_t max_buffers_;
  std::mutex mu_;
  std::vector<uint8_t*> free_;
  std::vector<uint8_t*> all_;
  size_t allocated_ = 0;
  uint64_t exhausted_ = 0;
};

}  // namespace gsys::capture::cupti
