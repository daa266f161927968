// SPDX-License-Identifier: Apache-2.0
// libgsys_test_nvtx_invalid_lib.so: a second module with its own copy of NVTX's function
// table (NVTX's globals are hidden per shared object), so gsys_test_nvtx_invalid can check that
// a name gives the same handle in every module of the process.
#include <nvtx3/nvToolsExt.h>

__attribute__((visibility("default"))) nvtxDomainHandle_t nvtx_invalid_lib_domain(
    const char* name) {
  return nvtxDomainCreateA(name);
}

__attribute__((visibility("default"))) nvtxStringHandle_t nvtx_invalid_lib_string(
    nvtxDomainHandle_t domain, const char* text) {
  return nvtxDomainRegisterStringA(domain, text);
}
