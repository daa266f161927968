// SPDX-License-Identifier: Apache-2.0
// A CUDA graph of K kernel nodes (captured from a stream) launched R times.
#include "common.h"

__global__ void gsys_graph_node(int* p, int k) {
  if (threadIdx.x == 0) p[k] += 1;
}

int main() {
  const int kNodes = 5, kLaunches = 10;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 4096));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < kNodes; ++k) gsys_graph_node<<<1, 32, 0, s>>>(d, k);
  CHECK(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int r = 0; r < kLaunches; ++r) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("expect nodes=%d launches=%d\n", kNodes, kLaunches);
  return 0;
}
