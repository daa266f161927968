// SPDX-License-Identifier: Apache-2.0
// Kineto's top-level "deviceProperties": one object per GPU with the fields torch.profiler writes
// (cudaDeviceProp names), from the report's TARGET_INFO_GPU.
#pragma once

#include <string>

#include "common/status.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

// The JSON array text ("[{"id": 0, "name": "NVIDIA H200", "totalGlobalMem": ..., ...}]"). A field
// whose column the report lacks or holds NULL in is left out; no TARGET_INFO_GPU gives "[]".
Result<std::string> DevicePropertiesJson(report::ReportReader& reader);

}  // namespace gsys::export_
