// SPDX-License-Identifier: Apache-2.0
// -t cuda,cublas,cudnn GPU case (issue 10): one cuBLAS handle running `reps` SGEMMs
// (cublasSgemm -> cublasSgemm_v2) and one cuDNN handle running `reps` convolutions
// (cudnnConvolutionForward, implicit GEMM: no workspace). Prints "done" when all succeeded.
#include <cublas_v2.h>
#include <cudnn.h>

#include <cstdlib>

#include "common.h"

#define CHECK_BLAS(call)                          \
  do {                                            \
    if ((call) != CUBLAS_STATUS_SUCCESS) {        \
      std::fprintf(stderr, "%s failed\n", #call); \
      std::exit(3);                               \
    }                                             \
  } while (0)
#define CHECK_DNN(call)                                                 \
  do {                                                                  \
    cudnnStatus_t s_ = (call);                                          \
    if (s_ != CUDNN_STATUS_SUCCESS) {                                   \
      std::fprintf(stderr, "%s: %s\n", #call, cudnnGetErrorString(s_)); \
      std::exit(4);                                                     \
    }                                                                   \
  } while (0)

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  const int n = 256;
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, n * n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
  cublasHandle_t blas;
  CHECK_BLAS(cublasCreate(&blas));
  const float one = 1.0f, zero = 0.0f;
  for (int i = 0; i < reps; ++i) {
    CHECK_BLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
  }
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(blas));

  cudnnHandle_t dnn;
  CHECK_DNN(cudnnCreate(&dnn));
  cudnnTensorDescriptor_t x_desc, y_desc;
  cudnnFilterDescriptor_t w_desc;
  cudnnConvolutionDescriptor_t conv;
  CHECK_DNN(cudnnCreateTensorDescriptor(&x_desc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&y_desc));
  CHECK_DNN(cudnnCreateFilterDescriptor(&w_desc));
  CHECK_DNN(cudnnCreateConvolutionDescriptor(&conv));
  CHECK_DNN(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 4, 8, 32, 32));
  CHECK_DNN(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 16, 8, 3, 3));
  CHECK_DNN(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                            CUDNN_DATA_FLOAT));
  int on, oc, oh, ow;
  CHECK_DNN(cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &on, &oc, &oh, &ow));
  CHECK_DNN(
      cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, on, oc, oh, ow));
  float *x, *w, *y;
  CHECK(cudaMalloc(&x, 4 * 8 * 32 * 32 * sizeof(float)));
  CHECK(cudaMalloc(&w, 16 * 8 * 3 * 3 * sizeof(float)));
  CHECK(cudaMalloc(&y, static_cast<size_t>(on) * oc * oh * ow * sizeof(float)));
  for (int i = 0; i < reps; ++i) {
    CHECK_DNN(cudnnConvolutionForward(dnn, &one, x_desc, x, w_desc, w, conv,
                                      CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, nullptr, 0, &zero,
                                      y_desc, y));
  }
  CHECK(cudaDeviceSynchronize());
  CHECK_DNN(cudnnDestroy(dnn));
  std::printf("done\n");
  return 0;
}
