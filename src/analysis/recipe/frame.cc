// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/frame.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "common/csv_field.h"
#include "common/strings.h"

namespace gsys::analysis::recipe {

int Frame::Column(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  return -1;
}

double Round1(double x) { return std::nearbyint(x * 10.0) / 10.0; }

std::string CellText(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* d = std::get_if<double>(&cell)) {
    if (!std::isfinite(*d)) return "";
    char buf[400];  // fixed notation of any finite double fits
    auto res = std::to_chars(buf, buf + sizeof(buf), *d, std::chars_format::fixed);
    if (res.ec != std::errc()) return "";
    std::string text(buf, res.ptr);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
  }
  return "";
}

namespace {

// Numbers never look formula-like (IsFormulaLike leaves "-5" alone), so neutralising every cell
// is the same as neutralising the text cells only.
void AppendField(std::string* out, std::string_view text, CsvText mode) {
  AppendCsvField(*out, text, mode == CsvText::kNeutralised);
}

Cell ParseField(const std::string& text, bool quoted, CsvText written) {
  if (text.empty() && !quoted) return std::monostate{};
  if (written == CsvText::kNeutralised && text.size() > 1 && text[0] == '\'' &&
      IsFormulaLike(std::string_view(text).substr(1))) {
    return text.substr(1);
  }
  if (quoted) return text;
  if (auto i = ParseInt64(text)) return *i;
  bool numeric = text.find_first_not_of("0123456789.-e+") == std::string::npos &&
                 text.find_first_of("0123456789") != std::string::npos;
  if (numeric) {
    double value = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), value);
    if (res.ec == std::errc() && res.ptr == text.data() + text.size()) return value;
  }
  return text;
}

}  // namespace

std::string ToCsv(const Frame& frame, CsvText text) {
  std::string out;
  for (size_t c = 0; c < frame.columns.size(); ++c) {
    if (c) out += ',';
    AppendField(&out, frame.columns[c], CsvText::kAsIs);
  }
  out += '\n';
  for (const auto& row : frame.rows) AppendCsvRow(&out, row, nullptr, text);
  return out;
}

void AppendCsvRow(std::string* out, const std::vector<Cell>& row, const int64_t* rank,
                  CsvText text) {
  if (rank) {
    *out += std::to_string(*rank);
    if (!row.empty()) *out += ',';
  }
  for (size_t c = 0; c < row.size(); ++c) {
    if (c) *out += ',';
    AppendField(out, CellText(row[c]), text);
  }
  *out += '\n';
}

namespace {

// RFC 4180 scanner shared by the readers below: calls field(text, quoted) for every field and
// row_end() after the last field of every line (also an unterminated last line); CR outside
// quotes is dropped. Returns false for an unterminated quoted field.
template <typename FieldFn, typename RowEndFn>
bool ScanCsv(std::string_view text, FieldFn&& field_fn, RowEndFn&& row_end) {
  std::string field;
  bool quoted = false, in_quotes = false, pending = false;
  auto end_field = [&] {
    field_fn(field, quoted);
    field.clear();
    quoted = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        field += c;
      }
      continue;
    }
    pending = true;
    if (c == '"') {
      in_quotes = quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\n') {
      end_field();
      row_end();
      pending = false;
    } else if (c != '\r') {
      field += c;
    }
  }
  if (in_quotes) return false;
  if (pending || !field.empty()) {
    end_field();
    row_end();
  }
  return true;
}

}  // namespace

void AppendNeutralisedRecord(std::string* out, std::string_view record) {
  bool first = true;
  ScanCsv(
      record,
      [&](const std::string& field, bool) {
        if (!first) *out += ',';
        AppendField(out, field, CsvText::kNeutralised);
        first = false;
      },
      [] {});
}

Result<Frame> ParseCsv(std::string_view text, CsvText written) {
  Frame frame;
  std::vector<Cell> row;
  bool header = true;
  bool complete = ScanCsv(
      text,
      [&](const std::string& field, bool quoted) {
        if (header) {
          frame.columns.push_back(field);
        } else {
          row.push_back(ParseField(field, quoted, written));
        }
      },
      [&] {
        if (!header) frame.rows.push_back(std::move(row));
        row.clear();
        header = false;
      });
  if (!complete) return Error(StatusCode::kBadInput, "csv: unterminated quoted field");
  return frame;
}

void PutInt(std::string* out, int64_t value) {
  char buf[8];
  std::memcpy(buf, &value, 8);
  out->append(buf, 8);
}

void PutBytes(std::string* out, std::string_view bytes) {
  PutInt(out, static_cast<int64_t>(bytes.size()));
  out->append(bytes);
}

bool ByteReader::Int(int64_t* value) {
  if (data_.size() < 8) return false;
  std::memcpy(value, data_.data(), 8);
  data_.remove_prefix(8);
  return true;
}

bool ByteReader::Bytes(std::string* value) {
  int64_t size = 0;
  if (!Int(&size) || size < 0 || static_cast<uint64_t>(size) > data_.size()) return false;
  value->assign(data_.substr(0, static_cast<size_t>(size)));
  data_.remove_prefix(static_cast<size_t>(size));
  return true;
}

std::string EncodeBundle(const Bundle& bundle) {
  std::string out;
  PutInt(&out, static_cast<int64_t>(bundle.size()));
  for (const auto& [name, frame] : bundle) {
    PutBytes(&out, name);
    PutInt(&out, static_cast<int64_t>(frame.columns.size()));
    for (const auto& c : frame.columns) PutBytes(&out, c);
    PutInt(&out, static_cast<int64_t>(frame.rows.size()));
    for (const auto& row : frame.rows) {
      for (const auto& cell : row) {
        PutInt(&out, static_cast<int64_t>(cell.index()));
        if (const auto* i = std::get_if<int64_t>(&cell)) PutInt(&out, *i);
        if (const auto* d = std::get_if<double>(&cell)) {
          int64_t bits = 0;
          std::memcpy(&bits, d, 8);
          PutInt(&out, bits);
        }
        if (const auto* s = std::get_if<std::string>(&cell)) PutBytes(&out, *s);
      }
    }
  }
  return out;
}

Result<Bundle> DecodeBundle(std::string_view data) {
  Status bad(StatusCode::kInternal, "recipe: corrupt result bundle");
  ByteReader in(data);
  Bundle bundle;
  int64_t frames = 0;
  if (!in.Int(&frames)) return bad;
  for (int64_t f = 0; f < frames; ++f) {
    std::string name;
    Frame frame;
    int64_t ncols = 0, nrows = 0;
    if (!in.Bytes(&name) || !in.Int(&ncols)) return bad;
    frame.columns.resize(static_cast<size_t>(ncols));
    for (auto& c : frame.columns) {
      if (!in.Bytes(&c)) return bad;
    }
    if (!in.Int(&nrows)) return bad;
    frame.rows.resize(static_cast<size_t>(nrows));
    for (auto& row : frame.rows) {
      row.resize(static_cast<size_t>(ncols));
      for (auto& cell : row) {
        int64_t kind = 0, value = 0;
        std::string text;
        if (!in.Int(&kind)) return bad;
        switch (kind) {
          case 0:
            cell = std::monostate{};
            break;
          case 1:
            if (!in.Int(&value)) return bad;
            cell = value;
            break;
          case 2: {
            if (!in.Int(&value)) return bad;
            double d = 0;
            std::memcpy(&d, &value, 8);
            cell = d;
            break;
          }
          case 3:
            if (!in.Bytes(&text)) return bad;
            cell = std::move(text);
            break;
          default:
            return bad;
        }
      }
    }
    bundle.emplace(std::move(name), std::move(frame));
  }
  return bundle;
}

}  // namespace gsys::analysis::recipe
