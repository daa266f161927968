// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/buffer_pool.h"

#include <cstdlib>

namespace gsys::capture::cupti {

BufferPool::~BufferPool() {
  for (uint8_t* b : all_) std::free(b);
}

uint8_t* BufferPool::Get() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!free_.empty()) {
    uint8_t* b = free_.back();
    free_.pop_back();
    return b;
  }
  if (allocated_ >= max_buffers_) {
    ++exhausted_;
    return nullptr;
  }
  auto* b = static_cast<uint8_t*>(std::aligned_alloc(64, buffer_bytes_));
  if (b == nullptr) {
    ++exhausted_;
    return nullptr;
  }
  ++allocated_;
  all_.reserve(max_buffers_);
  free_.reserve(max_buffers_);
  all_.push_back(b);
  return b;
}

void BufferPool::Put(uint8_t* buffer) {
  if (buffer == nullptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(buffer);
}

}  // namespace gsys::capture::cupti
