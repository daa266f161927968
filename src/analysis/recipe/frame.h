// SPDX-License-Identifier: Apache-2.0
// Frame: one table a recipe produces (named columns, rows of cells), how it becomes CSV, and a
// lossless binary encoding so per-rank results can travel between processes (MPI mode) and be
// reduced into byte-identical output.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/stats/result_table.h"
#include "common/status.h"

namespace gsys::analysis::recipe {

using Cell = analysis::Cell;  // NULL, int64, double or text

struct Frame {
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;

  // Index of column `name`, or -1.
  int Column(std::string_view name) const;
};

// Named frames: what one rank's map step returns.
using Bundle = std::map<std::string, Frame>;

// CSV text of one cell: integers as is, doubles in their shortest round-trip form with at
// least one decimal ("12.5", "3.0"), text as is, NULL and NaN as empty.
std::string CellText(const Cell& cell);
// How cell text is written: as it is (the spill files, read back by gsys), or with the formula-like
// cells a spreadsheet would run prefixed by "'" (common/csv_field.h; the user's output files).
enum class CsvText { kAsIs, kNeutralised };

// RFC 4180 CSV: a header line, then one line per row; fields with ',', '"' or a newline are
// quoted. Lines end with "\n". The header is never neutralised.
std::string ToCsv(const Frame& frame, CsvText text = CsvText::kAsIs);
// One CSV line of ToCsv's (ends with "\n"); `rank`, when given, is written as a first field.
void AppendCsvRow(std::string* out, const std::vector<Cell>& row, const int64_t* rank = nullptr,
                  CsvText text = CsvText::kAsIs);
// `record` (one CSV line without its "\n", as AppendCsvRow wrote it with kAsIs) rewritten as
// kNeutralised would have written it; appended to `out`.
void AppendNeutralisedRecord(std::string* out, std::string_view record);
// Parses CSV written by ToCsv (or any RFC 4180 file): every cell comes back as text, except
// integers (all digits, optional '-') as int64 and decimals as double; empty fields as NULL.
// With kNeutralised the file is taken as written that way: a "'" in front of a formula-like
// text is removed again.
Result<Frame> ParseCsv(std::string_view text, CsvText written = CsvText::kAsIs);

// numpy's round(x, 1): half to even on the scaled value.
double Round1(double x);

// Lossless binary encoding of a bundle (doubles bit-exact).
std::string EncodeBundle(const Bundle& bundle);
Result<Bundle> DecodeBundle(std::string_view data);

// Appends length-prefixed pieces; the reader returns false on truncated input.
void PutBytes(std::string* out, std::string_view bytes);
void PutInt(std::string* out, int64_t value);
class ByteReader {
 public:
  explicit ByteReader(std::string_view data) : data_(data) {}
  bool Int(int64_t* value);
  bool Bytes(std::string* value);
  bool done() const { return data_.empty(); }

 private:
  std::string_view data_;
};

}  // namespace gsys::analysis::recipe
