// SPDX-License-Identifier: Apache-2.0
#include "upload/json_fields.h"

#include <cstdint>

namespace gsys::upload {
namespace {

class JsonReader {
 public:
  explicit JsonReader(std::string_view in) : in_(in) {}

  bool Object(std::map<std::string, std::string>* out) {
    Space();
    if (!Eat('{')) return false;
    Space();
    if (Eat('}')) return End();
    for (;;) {
      std::string key;
      Space();
      if (!String(&key)) return false;
      Space();
      if (!Eat(':')) return false;
      Space();
      if (Peek() == '"') {
        std::string value;
        if (!String(&value)) return false;
        (*out)[key] = value;
      } else if (!Value(1)) {
        return false;
      }
      Space();
      if (Eat('}')) return End();
      if (!Eat(',')) return false;
    }
  }

 private:
  char Peek() const { return pos_ < in_.size() ? in_[pos_] : '\0'; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  void Space() {
    while (pos_ < in_.size() &&
           (in_[pos_] == ' ' || in_[pos_] == '\t' || in_[pos_] == '\n' || in_[pos_] == '\r'))
      ++pos_;
  }
  bool End() {
    Space();
    return pos_ == in_.size();
  }
  static void Utf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < in_.size()) {
      char c = in_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (pos_ >= in_.size()) return false;
      char e = in_[pos_++];
      switch (e) {
        case '"':
          *out += '"';
          break;
        case '\\':
          *out += '\\';
          break;
        case '/':
          *out += '/';
          break;
        case 'b':
          *out += '\b';
          break;
        case 'f':
          *out += '\f';
          break;
        case 'n':
          *out += '\n';
          break;
        case 'r':
          *out += '\r';
          break;
        case 't':
          *out += '\t';
          break;
        case 'u': {
          if (pos_ + 4 > in_.size()) return false;
          uint32_t cp = 0;
          for (int i = 0; i < 4; ++i) {
            char h = in_[pos_++];
            int v = (h >= '0' && h <= '9')   ? h - '0'
                    : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                    : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                             : -1;
            if (v < 0) return false;
            cp = cp * 16 + static_cast<uint32_t>(v);
          }
          Utf8(cp, out);  // surrogate pairs are kept as two code units; credentials are ASCII
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }
  bool Literal(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool Number() {
    size_t start = pos_;
    while (pos_ < in_.size() &&
           std::string_view("+-0123456789.eE").find(in_[pos_]) != std::string_view::npos)
      ++pos_;
    return pos_ > start;
  }
  // Validates and skips any value.
  bool Value(int depth) {
    if (depth > 32) return false;
    Space();
    char c = Peek();
    if (c == '"') {
      std::string ignored;
      return String(&ignored);
    }
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      ++pos_;
      Space();
      if (Eat(close)) return true;
      for (;;) {
        Space();
        if (c == '{') {
          std::string ignored;
          if (!String(&ignored)) return false;
          Space();
          if (!Eat(':')) return false;
        }
        if (!Value(depth + 1)) return false;
        Space();
        if (Eat(close)) return true;
        if (!Eat(',')) return false;
      }
    }
    if (c == 't') return Literal("true");
    if (c == 'f') return Literal("false");
    if (c == 'n') return Literal("null");
    return Number();
  }

  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace

Result<std::map<std::string, std::string>> ParseJsonStringFields(std::string_view text) {
  if (text.size() > (1u << 20))
    return Error(StatusCode::kBadInput, "upload: JSON document larger than 1 MiB");
  std::map<std::string, std::string> out;
  if (!JsonReader(text).Object(&out))
    return Error(StatusCode::kBadInput, "upload: malformed JSON credentials document");
  return out;
}

}  // namespace gsys::upload
