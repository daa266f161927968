// SPDX-License-Identifier: Apache-2.0
// libgsys_test_nvtx_shim.so: the NVTX C API as real exported symbols (like CUDA's
// libnvtx3interop), so the Python test can call NVTX through ctypes.
#define NVTX_EXPORT_API
#include <nvtx3/nvToolsExt.h>
