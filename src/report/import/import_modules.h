// SPDX-License-Identifier: Apache-2.0
// The import modules (import_module.h), in the order ImportSession finishes them.
#pragma once

#include <memory>
#include <vector>

#include "report/import/import_module.h"

namespace gsys::report {

std::vector<std::unique_ptr<ImportModule>> MakeImportModules(const ImportContext& context);

}  // namespace gsys::report
