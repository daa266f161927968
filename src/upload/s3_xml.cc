// SPDX-License-Identifier: Apache-2.0
#include "upload/s3_xml.h"

#include <cstdint>

namespace gsys::upload {
namespace {

constexpr size_t kMaxBytes = 4u << 20;
constexpr int kMaxDepth = 32;

// Recursive-descent parser over one buffer; `pos_` only moves forward.
class XmlParser {
 public:
  explicit XmlParser(std::string_view in) : in_(in) {}

  Result<XmlElement> Document() {
    if (in_.size() > kMaxBytes) return Fail("document larger than 4 MiB");
    if (in_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
    if (!SkipMisc()) return Fail(error_);
    if (!Peek('<')) return Fail("no root element");
    XmlElement root;
    if (!Element(&root, 0)) return Fail(error_);
    if (!SkipMisc()) return Fail(error_);
    if (pos_ != in_.size()) return Fail("content after the root element");
    return root;
  }

 private:
  Status Fail(const std::string& why) const {
    return Error(StatusCode::kBadInput, "upload: malformed XML response (" + why + " at byte " +
                                            std::to_string(pos_) + ")");
  }
  bool Err(const char* why) {
    error_ = why;
    return false;
  }
  bool Peek(char c) const { return pos_ < in_.size() && in_[pos_] == c; }
  bool StartsHere(std::string_view s) const { return in_.substr(pos_, s.size()) == s; }
  void SkipSpace() {
    while (pos_ < in_.size() &&
           (in_[pos_] == ' ' || in_[pos_] == '\t' || in_[pos_] == '\r' || in_[pos_] == '\n'))
      ++pos_;
  }
  // Skips up to and including `end`; false if it never comes.
  bool SkipPast(std::string_view end) {
    size_t at = in_.find(end, pos_);
    if (at == std::string_view::npos) return false;
    pos_ = at + end.size();
    return true;
  }
  // Whitespace, <?...?>, <!-- --> and <!DOCTYPE ...> outside the root.
  bool SkipMisc() {
    for (;;) {
      SkipSpace();
      if (StartsHere("<?")) {
        if (!SkipPast("?>")) return Err("unterminated processing instruction");
      } else if (StartsHere("<!--")) {
        if (!SkipPast("-->")) return Err("unterminated comment");
      } else if (StartsHere("<!")) {
        if (!SkipPast(">")) return Err("unterminated declaration");
      } else {
        return true;
      }
    }
  }
  static bool NameChar(char c) {
    return c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '>' && c != '/' && c != '=' &&
           c != '<' && c != '"' && c != '\'';
  }
  bool Name(std::string* out) {
    size_t start = pos_;
    while (pos_ < in_.size() && NameChar(in_[pos_])) ++pos_;
    if (pos_ == start) return Err("missing element name");
    std::string_view full = in_.substr(start, pos_ - start);
    size_t colon = full.rfind(':');
    *out = std::string(colon == std::string_view::npos ? full : full.substr(colon + 1));
    return true;
  }
  // Attributes are skipped (S3 responses carry only xmlns). Ends after '>' or '/>'.
  bool SkipAttributes(bool* self_closing) {
    for (;;) {
      SkipSpace();
      if (pos_ >= in_.size()) return Err("unterminated start tag");
      char c = in_[pos_];
      if (c == '>') {
        ++pos_;
        *self_closing = false;
        return true;
      }
      if (StartsHere("/>")) {
        pos_ += 2;
        *self_closing = true;
        return true;
      }
      if (c == '"' || c == '\'') {
        size_t end = in_.find(c, pos_ + 1);
        if (end == std::string_view::npos) return Err("unterminated attribute value");
        pos_ = end + 1;
      } else {
        ++pos_;
      }
    }
  }
  bool Entity(std::string* out) {
    size_t end = in_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) return Err("bad entity");
    std::string_view e = in_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    if (e == "lt")
      *out += '<';
    else if (e == "gt")
      *out += '>';
    else if (e == "amp")
      *out += '&';
    else if (e == "quot")
      *out += '"';
    else if (e == "apos")
      *out += '\'';
    else if (!e.empty() && e[0] == '#')
      return CharRef(e.substr(1), out);
    else
      return Err("unknown entity");
    return true;
  }
  bool CharRef(std::string_view digits, std::string* out) {
    bool hex = !digits.empty() && (digits[0] == 'x' || digits[0] == 'X');
    if (hex) digits.remove_prefix(1);
    if (digits.empty()) return Err("bad character reference");
    uint32_t cp = 0;
    for (char c : digits) {
      int v = (c >= '0' && c <= '9')          ? c - '0'
              : hex && (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : hex && (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                              : -1;
      if (v < 0) return Err("bad character reference");
      cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
      if (cp > 0x10FFFF) return Err("character reference out of range");
    }
    AppendUtf8(cp, out);
    return true;
  }
  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  // At '<' of a start tag.
  bool Element(XmlElement* el, int depth) {
    if (depth >= kMaxDepth) return Err("nesting too deep");
    ++pos_;
    if (!Name(&el->name)) return false;
    bool self_closing = false;
    if (!SkipAttributes(&self_closing)) return false;
    if (self_closing) return true;
    for (;;) {
      if (pos_ >= in_.size()) return Err("unterminated element");
      char c = in_[pos_];
      if (c == '&') {
        if (!Entity(&el->text)) return false;
      } else if (c != '<') {
        el->text += c;
        ++pos_;
      } else if (StartsHere("</")) {
        pos_ += 2;
        std::string closing;
        if (!Name(&closing)) return false;
        if (closing != el->name) return Err("mismatched end tag");
        SkipSpace();
        if (!Peek('>')) return Err("bad end tag");
        ++pos_;
        return true;
      } else if (StartsHere("<![CDATA[")) {
        size_t end = in_.find("]]>", pos_ + 9);
        if (end == std::string_view::npos) return Err("unterminated CDATA");
        el->text.append(in_.substr(pos_ + 9, end - pos_ - 9));
        pos_ = end + 3;
      } else if (StartsHere("<!--")) {
        if (!SkipPast("-->")) return Err("unterminated comment");
      } else if (StartsHere("<?")) {
        if (!SkipPast("?>")) return Err("unterminated processing instruction");
      } else {
        el->children.emplace_back();
        if (!Element(&el->children.back(), depth + 1)) return false;
      }
    }
  }

  std::string_view in_;
  size_t pos_ = 0;
  std::string error_ = "malformed";
};

std::string TrimCopy(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace

const XmlElement* XmlElement::Child(std::string_view child_name) const {
  for (const auto& c : children) {
    if (c.name == child_name) return &c;
  }
  return nullptr;
}

Result<XmlElement> ParseXml(std::string_view bytes) { return XmlParser(bytes).Document(); }

bool ParseS3Error(std::string_view body, S3Error* error) {
  Result<XmlElement> doc = ParseXml(body);
  if (!doc.ok() || doc->name != "Error") return false;
  const XmlElement* code = doc->Child("Code");
  const XmlElement* message = doc->Child("Message");
  error->code = code ? TrimCopy(code->text) : "";
  error->message = message ? TrimCopy(message->text) : "";
  return true;
}

Result<std::string> ParseUploadId(std::string_view body) {
  Result<XmlElement> doc = ParseXml(body);
  if (!doc.ok()) return doc.status();
  const XmlElement* id = doc->Child("UploadId");
  if (doc->name != "InitiateMultipartUploadResult" || id == nullptr || TrimCopy(id->text).empty()) {
    return Error(StatusCode::kBadInput,
                 "upload: the store's reply to CreateMultipartUpload has no UploadId");
  }
  return TrimCopy(id->text);
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace gsys::upload
