// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/spill.h"

#include <stdlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gsys::analysis::recipe {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

Status IoError(const std::string& what, const std::string& path) {
  return Error(StatusCode::kIoError,
               "recipe: cannot " + what + " '" + path + "': " + std::strerror(errno));
}

}  // namespace

Result<std::shared_ptr<ScratchDir>> ScratchDir::Create() {
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp && *tmp ? tmp : "/tmp";
  std::string templ = base + "/gsys-recipe-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) return IoError("create a temporary directory in", base);
  return std::shared_ptr<ScratchDir>(new ScratchDir(buf.data()));
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

Result<PartWriter> PartWriter::Open(const std::string& path, bool append) {
  std::FILE* file = std::fopen(path.c_str(), append ? "ab" : "wb");
  if (!file) return IoError("write", path);
  return PartWriter(file, path);
}

PartWriter::PartWriter(PartWriter&& other) noexcept
    : file_(other.file_), path_(std::move(other.path_)), buffer_(std::move(other.buffer_)) {
  other.file_ = nullptr;
}

PartWriter::~PartWriter() {
  if (file_) std::fclose(file_);
}

Status PartWriter::Flush(bool force) {
  if (buffer_.empty() || (!force && buffer_.size() < kFlushBytes)) return OkStatus();
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    return IoError("write", path_);
  }
  buffer_.clear();
  return OkStatus();
}

Status PartWriter::Close() {
  GSYS_RETURN_IF_ERROR(Flush(true));
  std::FILE* file = file_;
  file_ = nullptr;
  if (file && std::fclose(file) != 0) return IoError("write", path_);
  return OkStatus();
}

Status WritePart(const std::string& path, const Frame& frame, int64_t rank) {
  GSYS_ASSIGN_OR_RETURN(PartWriter out, PartWriter::Open(path, false));
  for (const auto& row : frame.rows) {
    AppendCsvRow(out.buffer(), row, &rank);
    GSYS_RETURN_IF_ERROR(out.Flush(false));
  }
  return out.Close();
}

Status ForEachPiece(const std::string& path, size_t piece_size,
                    const std::function<Status(std::string_view)>& piece) {
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (!in) return IoError("read", path);
  std::string buf(piece_size, '\0');
  Status status = OkStatus();
  while (status.ok()) {
    size_t n = std::fread(buf.data(), 1, buf.size(), in);
    if (n == 0) {
      if (std::ferror(in)) status = IoError("read", path);
      break;
    }
    status = piece(std::string_view(buf.data(), n));
  }
  std::fclose(in);
  return status;
}

Status AppendFileTo(std::FILE* out, const std::string& from) {
  return ForEachPiece(from, 1 << 20, [&](std::string_view bytes) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size()) {
      return IoError("write the output for", from);
    }
    return OkStatus();
  });
}

Status ForEachRecord(const std::vector<std::string>& parts,
                     const std::function<bool(const std::string&)>& line) {
  std::string record;
  bool in_quotes = false, go = true;
  for (const std::string& part : parts) {
    if (!go) break;
    GSYS_RETURN_IF_ERROR(ForEachPiece(part, 1 << 20, [&](std::string_view bytes) {
      for (char c : bytes) {
        if (!go) break;
        if (c == '"') in_quotes = !in_quotes;
        if (c == '\n' && !in_quotes) {
          go = line(record);
          record.clear();
        } else {
          record += c;
        }
      }
      return OkStatus();
    }));
  }
  return OkStatus();
}

Result<Frame> ReadRows(const std::vector<std::string>& columns,
                       const std::vector<std::string>& parts, size_t limit) {
  std::string text;
  for (size_t c = 0; c < columns.size(); ++c) text += (c ? "," : "") + std::string("x");
  text += '\n';
  size_t rows = 0;
  if (limit > 0) {
    GSYS_RETURN_IF_ERROR(ForEachRecord(parts, [&](const std::string& record) {
      text += record;
      text += '\n';
      return ++rows < limit;
    }));
  }
  GSYS_ASSIGN_OR_RETURN(Frame frame, ParseCsv(text));
  frame.columns = columns;
  return frame;
}

}  // namespace gsys::analysis::recipe
