// SPDX-License-Identifier: Apache-2.0
#include "common/csv_field.h"

namespace gsys {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// [+-]digits[.digits][(e|E)[+-]digits], with at least one digit before the exponent.
bool IsPlainNumber(std::string_view t) {
  size_t i = 0, n = t.size();
  if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
  size_t digits = 0;
  while (i < n && IsDigit(t[i])) ++i, ++digits;
  if (i < n && t[i] == '.') {
    ++i;
    while (i < n && IsDigit(t[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    size_t exp = 0;
    while (i < n && IsDigit(t[i])) ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == n;
}

}  // namespace

bool IsFormulaLike(std::string_view text) {
  if (text.empty()) return false;
  char c = text.front();
  if (c != '=' && c != '+' && c != '-' && c != '@' && c != '\t' && c != '\r') return false;
  return !IsPlainNumber(text);
}

void AppendCsvField(std::string& out, std::string_view text, bool neutralise) {
  bool prefix = neutralise && IsFormulaLike(text);
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    if (prefix) out.push_back('\'');
    out.append(text);
    return;
  }
  out.push_back('"');
  if (prefix) out.push_back('\'');
  for (char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace gsys
