// SPDX-License-Identifier: Apache-2.0
// One CSV field as gsys writes it (RFC 4180 quoting), with spreadsheet formula neutralisation:
// report text is untrusted (kernel, NVTX and thread names are chosen by the profiled program),
// and a spreadsheet that opens the CSV evaluates a cell starting with '=', '+', '-' or '@' (or
// a tab or CR before one) as a formula: "=HYPERLINK(...)", "-2+3+cmd|' /C calc'!A0". OWASP's
// advice, followed here: prefix such a text cell with a single quote, which the spreadsheet
// shows as text. Numbers ("-5", "-1.5", "+2e3") are never changed.
#pragma once

#include <string>
#include <string_view>

namespace gsys {

// True when `text` starts with '=', '+', '-', '@', a tab or a CR and is not a plain decimal
// number (optional sign, digits, optional fraction and exponent).
bool IsFormulaLike(std::string_view text);

// Appends `text` as one field: wrapped in double quotes (inner quotes doubled) when it holds a
// comma, double quote, CR or LF. With `neutralise`, a formula-like text gets a leading "'"
// first. Pass neutralise = false for cells that are numbers.
void AppendCsvField(std::string& out, std::string_view text, bool neutralise);

}  // namespace gsys
