// SPDX-License-Identifier: Apache-2.0
#include "report/import/cuda/cuda_names.h"

#include <gtest/gtest.h>

namespace gsys::report {
namespace {

TEST(CudaNames, DemanglesCxxAndKeepsCNames) {
  EXPECT_EQ(DemangleKernelName("_Z6squarePfi"), "square(float*, int)");
  EXPECT_EQ(DemangleKernelName("vector_add"), "vector_add");
  EXPECT_EQ(DemangleKernelName("_Znot_valid"), "_Znot_valid");
  EXPECT_EQ(DemangleKernelName("_ZN12_GLOBAL__N_11kEv"), "<unnamed>::k()");
}

TEST(CudaNames, ShortNameIsTheBaseFunctionName) {
  EXPECT_EQ(KernelShortName("square(float*, int)"), "square");
  EXPECT_EQ(KernelShortName("vector_add"), "vector_add");
  EXPECT_EQ(KernelShortName("void at::native::vectorized_elementwise_kernel<(int)4, "
                            "at::native::FillFunctor<c10::Half>, std::array<char *, (unsigned "
                            "long)1>>(int, T2, T3)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(KernelShortName("<unnamed>::nvfuser_none_f0_c0_r0_g0(<unnamed>::Tensor<float, 3>)"),
            "nvfuser_none_f0_c0_r0_g0");
  EXPECT_EQ(KernelShortName("void ns::k<int>(float*)"), "k");
}

}  // namespace
}  // namespace gsys::report
