// SPDX-License-Identifier: Apache-2.0
// The rule SQL files (rules/*.sql), embedded at build time by stats/embed_sql.cmake.
#pragma once

#include <vector>

#include "analysis/stats/report_sql.h"

namespace gsys::analysis {

const std::vector<EmbeddedSql>& EmbeddedRuleSql();

}  // namespace gsys::analysis
