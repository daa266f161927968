// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the report reader (report/reader) on arbitrary files — mutated SQLite reports
// of every nsys schema variant and gsys reports. Open must answer a one-line error or present
// the canonical schema; then every canonical table is queried once.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "report/reader/report_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = gsys::fuzz::ScratchDir() + "/in.sqlite";
  if (!gsys::fuzz::WriteFile(path, data, size)) return 0;
  auto reader = gsys::report::ReportReader::Open(path);
  if (!reader.ok()) return 0;
  for (const char* table :
       {"NVTX_EVENTS", "StringIds", "OSRT_API", "CUPTI_ACTIVITY_KIND_KERNEL",
        "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY", "PROCESSES", "ThreadNames",
        "TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_GPU", "ENUM_NSYS_EVENT_TYPE"}) {
    auto rows = reader->HasRows(table);
    (void)rows;
  }
  auto window = reader->SetTimeWindow({0, 1000000000});
  (void)window;
  auto again = reader->HasRows("NVTX_EVENTS");
  (void)again;
  return 0;
}
