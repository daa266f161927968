// SPDX-License-Identifier: Apache-2.0
// NVTX as DL code uses it: push/pop nested three deep in the default domain and in two named
// domains, categories, payloads (int64, uint32, double), colours, registered strings, marks,
// start/end ranges that start on one thread and end on another, and kernels launched at every
// nesting level (nvtx_kern_sum lists a kernel under each enclosing range).
#include <nvtx3/nvToolsExt.h>

#include <thread>

#include "corpus_common.h"

namespace {

nvtxEventAttributes_t Attr(const char* text, uint32_t category, uint32_t color) {
  nvtxEventAttributes_t a = {};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.category = category;
  a.colorType = NVTX_COLOR_ARGB;
  a.color = color;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = text;
  return a;
}

}  // namespace

int main() {
  int* out = nullptr;
  float* x = nullptr;
  const int n = 1 << 16;
  CHECK(cudaMalloc(&out, 64 * sizeof(int)));
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  nvtxDomainHandle_t train = nvtxDomainCreateA("train");
  nvtxDomainHandle_t io = nvtxDomainCreateA("io");
  nvtxDomainNameCategoryA(train, 1, "compute");
  nvtxDomainNameCategoryA(train, 2, "comm");
  nvtxNameCategoryA(7, "default-cat");
  nvtxStringHandle_t fwd = nvtxDomainRegisterStringA(train, "forward");
  for (int step = 0; step < 6; ++step) {
    nvtxRangePushA("train_step");
    nvtxEventAttributes_t a = Attr(nullptr, 1, 0xFF00AA00);
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = fwd;
    a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
    a.payload.llValue = step;
    nvtxDomainRangePushEx(train, &a);
    spin_kernel<<<1, 32>>>(20000, out);
    nvtxEventAttributes_t layer = Attr("layer", 1, 0xFF0000FF);
    layer.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    layer.payload.dValue = 0.5 * step;
    nvtxDomainRangePushEx(train, &layer);
    scale_kernel<<<n / 256, 256>>>(x, 1.0001f, n);
    add_kernel<float><<<n / 256, 256>>>(x, 1.0f, n);
    nvtxDomainRangePop(train);
    nvtxDomainRangePop(train);
    nvtxEventAttributes_t back = Attr("backward", 2, 0xFFAA0000);
    back.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
    back.payload.uiValue = 100u + step;
    nvtxDomainRangePushEx(train, &back);
    spin_kernel<<<2, 32>>>(40000, out);
    nvtxDomainRangePop(train);
    nvtxEventAttributes_t mark = Attr("step_done", 7, 0xFFFFFF00);
    nvtxMarkEx(&mark);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
  }
  // Start/end ranges crossing threads, in the io domain and the default one.
  nvtxEventAttributes_t load = Attr("load_batch", 0, 0xFF888888);
  nvtxRangeId_t pending[4];
  for (int i = 0; i < 4; ++i) pending[i] = nvtxDomainRangeStartEx(io, &load);
  nvtxRangeId_t whole = nvtxRangeStartA("epoch");
  std::thread ender([&] {
    for (int i = 0; i < 4; ++i) {
      add_kernel<int><<<1, 64>>>(out, 1, 64);
      CHECK(cudaStreamSynchronize(0));
      nvtxDomainRangeEnd(io, pending[i]);
    }
  });
  ender.join();
  nvtxRangeEnd(whole);
  nvtxMarkA("finished");
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(x));
  CHECK(cudaFree(out));
  std::printf("nvtx_shapes done\n");
  return 0;
}
