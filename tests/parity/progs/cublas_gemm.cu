// SPDX-License-Identifier: Apache-2.0
// cuBLAS as a model's linear layers call it: handle creation, SGEMMs of two shapes on a stream,
// inside NVTX ranges; captured with -t cuda,nvtx,cublas (cublas_api_sum, the kernels cuBLAS
// launches under the ranges).
#include <cublas_v2.h>
#include <nvtx3/nvToolsExt.h>

#include "corpus_common.h"

#define CHECK_BLAS(call)                                                     \
  do {                                                                       \
    if ((call) != CUBLAS_STATUS_SUCCESS) {                                   \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
      std::exit(2);                                                          \
    }                                                                        \
  } while (0)

int main() {
  const int n = 512;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, n * n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK_BLAS(cublasSetStream(h, s));
  const float one = 1.0f, zero = 0.0f;
  for (int i = 0; i < 8; ++i) {
    nvtxRangePushA("linear");
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
    CHECK_BLAS(
        cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n / 2, n, n, &one, a, n, b, n, &zero, c, n / 2));
    nvtxRangePop();
  }
  CHECK(cudaStreamSynchronize(s));
  CHECK_BLAS(cublasDestroy(h));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(c));
  CHECK(cudaFree(b));
  CHECK(cudaFree(a));
  std::printf("cublas_gemm done\n");
  return 0;
}
