// SPDX-License-Identifier: Apache-2.0
// How Kineto (torch.profiler) names what a gsys report holds: CUDA API names as CUPTI's function
// names, and the Kineto category of each event kind.
#pragma once

#include <string_view>

#include "export/timeline/timeline_event.h"

namespace gsys::export_ {

// `name` without the "_vNNNN" suffix (4 or more digits) that nsys appends to CUDA API names:
// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel", "cudaStreamGetCaptureInfo_v2_v11030" ->
// "cudaStreamGetCaptureInfo_v2" (Kineto's name), "cuGetProcAddress_v2" unchanged. A view of
// `name`.
std::string_view KinetoApiName(std::string_view name);

// The Kineto "cat" of an event of `kind` whose gsys category is `category`: NVTX ranges and marks
// are "user_annotation" (what torch.profiler's record_function writes); the rest keep theirs
// ("cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy", "gpu_memset", "os_runtime").
std::string_view KinetoCategory(EventKind kind, std::string_view category);

}  // namespace gsys::export_
