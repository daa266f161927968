// SPDX-License-Identifier: Apache-2.0
// --filter-nvtx of the recipes, with nsys recipe's semantics (which differ from `gsys stats`'s):
// "range[@domain][/index]" keeps the events overlapping ANY instance of the range (their union)
// unless an index picks one (0-based, instances ordered by start); only the ranges' start and end
// times count (no thread or process restriction); without "@domain" the range must be in the
// default domain, "@*" matches every domain; '@', '/' and '\' in names are escaped with '\'.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::analysis::recipe {

struct NvtxRangeSpec {
  std::string name;
  std::optional<std::string> domain;  // nullopt: the default domain
  bool any_domain = false;            // "@*"
  std::optional<int64_t> index;       // nullopt: every instance
};

// kInvalidArgument for an empty range name or domain, an unescaped '/' not followed by a
// non-negative integer, or a trailing lone '\'.
Result<NvtxRangeSpec> ParseNvtxRangeSpec(const std::string& spec);

// Restricts `reader` to the instances of `spec`. Returns a skip reason (empty when applied): the
// report has no such range, or fewer instances than the index needs.
Result<std::string> ApplyNvtxRangeFilter(report::ReportReader& reader, const NvtxRangeSpec& spec);

}  // namespace gsys::analysis::recipe
