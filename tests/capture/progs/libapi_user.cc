// SPDX-License-Identifier: Apache-2.0
// A library that calls cuBLAS, cuBLASLt and cuDNN functions that need no GPU, exactly `n` times
// each per call of RunLibraryCalls (cublasLtGetVersion once). Loaded by libapi_calls with
// dlopen(RTLD_LOCAL) by bare name through the program's RUNPATH, as PyTorch loads
// libtorch_cuda.so: the -t cublas,cudnn trace must still see these calls.
#include <cublasLt.h>
#include <cublas_api.h>
#include <cudnn.h>

extern "C" __attribute__((visibility("default"))) int RunLibraryCalls(int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int v = 0;
    if (cublasGetProperty(MAJOR_VERSION, &v) != CUBLAS_STATUS_SUCCESS || v < 1) ++bad;
    if (cublasGetStatusString(CUBLAS_STATUS_SUCCESS) == nullptr) ++bad;
    if (cudnnGetVersion() == 0) ++bad;
    if (cudnnGetErrorString(CUDNN_STATUS_SUCCESS) == nullptr) ++bad;
  }
  if (cublasLtGetVersion() == 0) ++bad;
  return bad;
}
