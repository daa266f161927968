// SPDX-License-Identifier: Apache-2.0
#include "report/import/import_modules.h"

#include "report/import/cuda/cuda_import.h"
#include "report/import/gpu_metrics/gpu_metrics_import.h"
#include "report/import/libapi/libapi_importer.h"
#include "report/import/nvtx/nvtx_import.h"
#include "report/import/osrt/osrt_import.h"
#include "report/import/stacks/stack_import.h"

namespace gsys::report {

std::vector<std::unique_ptr<ImportModule>> MakeImportModules(const ImportContext& context) {
  std::vector<std::unique_ptr<ImportModule>> modules;
  // Finish order matters: library calls attribute CUDA kernels, and stacks attach callchains
  // to CUDA and OS-runtime rows, so both come after those domains.
  modules.push_back(std::make_unique<NvtxImport>(context));
  modules.push_back(std::make_unique<OsrtImport>(context));
  modules.push_back(std::make_unique<CudaImport>(context));
  modules.push_back(std::make_unique<LibApiImport>(context));
  modules.push_back(std::make_unique<GpuMetricsImport>(context));
  modules.push_back(std::make_unique<StackImport>(context));
  return modules;
}

}  // namespace gsys::report
