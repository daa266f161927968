// SPDX-License-Identifier: Apache-2.0
// nsys's --nvtx-domain-include / --nvtx-domain-exclude, applied at import: NVTX events of the
// domains left out are removed from NVTX_EVENTS (domain and category names stay, as metadata).
// The lists come from session.meta (`nvtx_domain_include`, `nvtx_domain_exclude`, comma lists
// written by the CLI); `default` names the unnamed domain. Runs inside the import transaction.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"
#include "report/import/importer.h"

namespace gsys::report {

// Keeps only `include`'s domains (when not empty), then drops `exclude`'s; recounts
// sum->nvtx_events.
Status FilterNvtxDomains(Database& db, const std::vector<std::string>& include,
                         const std::vector<std::string>& exclude, ImportSummary* sum);

}  // namespace gsys::report
