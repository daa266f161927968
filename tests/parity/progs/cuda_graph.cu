// SPDX-License-Identifier: Apache-2.0
// A CUDA graph as frameworks use one (torch.cuda.graphs, TensorRT): four kernels and a memset
// captured from a stream, instantiated once and launched seven times, each launch inside an
// NVTX range; captured under --cuda-graph-trace=graph and =node (nvtx_gpu_proj_sum counts the
// graph's GPU operations differently in the two modes).
#include <nvtx3/nvToolsExt.h>

#include "corpus_common.h"

int main() {
  const int n = 1 << 16;
  float* x = nullptr;
  int* out = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&out, 64 * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(out, 0, 64 * sizeof(int), s));
  scale_kernel<<<n / 256, 256, 0, s>>>(x, 0.5f, n);
  add_kernel<float><<<n / 256, 256, 0, s>>>(x, 2.0f, n);
  spin_kernel<<<1, 32, 0, s>>>(20000, out);
  scale_kernel<<<n / 256, 256, 0, s>>>(x, 2.0f, n);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 7; ++i) {
    nvtxRangePushA("graph_step");
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    nvtxRangePop();
  }
  nvtxRangePushA("eager_step");  // the same work outside a graph, for comparison
  scale_kernel<<<n / 256, 256, 0, s>>>(x, 0.5f, n);
  add_kernel<float><<<n / 256, 256, 0, s>>>(x, 2.0f, n);
  CHECK(cudaStreamSynchronize(s));
  nvtxRangePop();
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(out));
  CHECK(cudaFree(x));
  std::printf("cuda_graph done\n");
  return 0;
}
