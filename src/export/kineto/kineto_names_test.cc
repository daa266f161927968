// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/kineto_names.h"

#include <gtest/gtest.h>

namespace gsys::export_ {
namespace {

TEST(KinetoNamesTest, DropsNsysVersionSuffix) {
  EXPECT_EQ(KinetoApiName("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(KinetoApiName("cudaMemcpyAsync_v3020"), "cudaMemcpyAsync");
  EXPECT_EQ(KinetoApiName("cudaStreamIsCapturing_v10000"), "cudaStreamIsCapturing");
  EXPECT_EQ(KinetoApiName("cudaStreamGetCaptureInfo_v2_v11030"), "cudaStreamGetCaptureInfo_v2");
}

TEST(KinetoNamesTest, KeepsNamesWithoutTheSuffix) {
  EXPECT_EQ(KinetoApiName("cuGetProcAddress_v2"), "cuGetProcAddress_v2");
  EXPECT_EQ(KinetoApiName("cuLaunchKernel"), "cuLaunchKernel");
  EXPECT_EQ(KinetoApiName("cudaFoo_v12a4"), "cudaFoo_v12a4");
  EXPECT_EQ(KinetoApiName("_v7000"), "_v7000");
  EXPECT_EQ(KinetoApiName(""), "");
}

TEST(KinetoNamesTest, NvtxIsUserAnnotation) {
  EXPECT_EQ(KinetoCategory(EventKind::kNvtxRange, "nvtx"), "user_annotation");
  EXPECT_EQ(KinetoCategory(EventKind::kNvtxMark, "nvtx"), "user_annotation");
  EXPECT_EQ(KinetoCategory(EventKind::kCudaApi, "cuda_driver"), "cuda_driver");
  EXPECT_EQ(KinetoCategory(EventKind::kKernel, "kernel"), "kernel");
}

}  // namespace
}  // namespace gsys::export_
