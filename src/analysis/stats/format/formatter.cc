// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/formatter.h"

#include "analysis/stats/format/column_formatter.h"
#include "analysis/stats/format/delimited_formatter.h"
#include "analysis/stats/format/html_formatter.h"
#include "analysis/stats/format/json_formatter.h"

namespace gsys::analysis {

Result<std::unique_ptr<Formatter>> MakeFormatter(const FormatRequest& request,
                                                 const std::string& timeunit) {
  // Re-validate: the request may not come from ParseFormatRequest.
  if (request.name.find(':') != std::string::npos) {
    return Error(StatusCode::kInvalidArgument, "stats: unknown format '" + request.name + "'");
  }
  GSYS_ASSIGN_OR_RETURN(FormatRequest checked, ParseFormatRequest(request.name));
  GSYS_ASSIGN_OR_RETURN(FormatOptions options, ParseFormatOptions(request, timeunit));
  const std::string& name = checked.name;
  std::unique_ptr<Formatter> formatter;
  if (name == "column" || name == "table") {
    formatter = std::make_unique<ColumnFormatter>(std::move(options), name == "table");
  } else if (name == "csv" || name == "tsv") {
    formatter = std::make_unique<DelimitedFormatter>(std::move(options), name == "tsv");
  } else if (name == "json") {
    formatter = std::make_unique<JsonFormatter>(std::move(options));
  } else {
    formatter = std::make_unique<HtmlFormatter>(std::move(options), name == "hdoc");
  }
  return formatter;
}

}  // namespace gsys::analysis
