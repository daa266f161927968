// SPDX-License-Identifier: Apache-2.0
// Fuzz target: `gsys import TRACE.json` of a hostile torch.profiler trace (issue 22): cut or
// malformed JSON, wrong types, huge numbers, deep nesting, gzip damage. The reader must neither
// crash nor hang nor grow without bound; bad input is an error or a counted event.
// Input: byte 0 bit 0 = write the rest gzip-compressed (then cut at byte 1's share of it).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.h"
#include "report/kineto/kineto_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const bool gzip = (data[0] & 1) != 0;
  const std::string dir = gsys::fuzz::ScratchDir();
  const std::string trace = dir + (gzip ? "/t.json.gz" : "/t.json");
  if (gzip) {
    gzFile f = gzopen(trace.c_str(), "wb");
    if (f == nullptr) return 0;
    size_t n = size - 2;
    size_t keep = n * data[1] / 255;
    if (keep > 0) gzwrite(f, data + 2, static_cast<unsigned>(keep));
    gzclose(f);
  } else {
    gsys::fuzz::WriteFile(trace, data + 2, size - 2);
  }
  gsys::report::kineto::KinetoImportOptions o;
  o.trace_path = trace;
  o.output_path = dir + "/r.gsys-rep";
  o.force_overwrite = true;
  auto result = gsys::report::kineto::ImportKinetoTrace(o);
  (void)result;
  return 0;
}
