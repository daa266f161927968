// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the whole importer (report/import) on one raw stream file of arbitrary bytes in
// a session directory: decode, NVTX matching, OS runtime rows, CUDA records, tables. The input
// may damage anything; the importer must count the damage (GSYS_DIAGNOSTICS), never crash.
// Checksums are repaired as in stream_decode_fuzzer when the first byte is odd.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

#include "fuzz/chunk_repair.h"
#include "fuzz/fuzz_util.h"
#include "report/import/importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size > 0 && (data[0] & 1) != 0) {
    gsys::fuzz::RepairChunkChecksums(bytes.data(), bytes.size());
  }
  const std::string session = gsys::fuzz::ScratchDir() + "/s.gsys-session";
  std::error_code ec;
  std::filesystem::create_directories(session, ec);
  if (!gsys::fuzz::WriteFile(session + "/100-1.gsysraw", bytes.data(), bytes.size())) return 0;
  gsys::report::ImportOptions o;
  o.session_dir = session;
  o.output_path = gsys::fuzz::ScratchDir() + "/r.gsys-rep";
  o.force_overwrite = true;
  auto result = gsys::report::ImportSession(o);
  (void)result;
  return 0;
}
