// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/trace_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gsys::report::kineto {
namespace {

constexpr size_t kChunk = 256 * 1024;

// zlib's message without the "<fd:3>: " it prefixes for a gzdopen'ed file.
std::string GzMessage(gzFile gz) {
  int code = 0;
  const char* msg = gzerror(gz, &code);
  std::string text = msg != nullptr && *msg != '\0' ? msg : "read error";
  if (text.rfind("<fd:", 0) == 0 && text.find(": ") != std::string::npos) {
    text = text.substr(text.find(": ") + 2);
  }
  return "gzip data is damaged: " + text;
}

}  // namespace

Result<std::unique_ptr<TraceInput>> TraceInput::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not block; it is refused below as not a regular file.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return Error(errno == ENOENT ? StatusCode::kNotFound : StatusCode::kIoError,
                 "'" + path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error(StatusCode::kBadInput, "'" + path + "' is not a regular file");
  }
  unsigned char magic[2] = {0, 0};
  bool gzip = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  gzFile gz = gzdopen(fd, "rb");  // reads plain files as they are
  if (gz == nullptr) {
    ::close(fd);
    return Error(StatusCode::kIoError, "'" + path + "': cannot read");
  }
  gzbuffer(gz, 128 * 1024);
  std::unique_ptr<TraceInput> in(new TraceInput());
  in->gz_ = gz;
  in->buf_.reset(new char[kChunk]);
  in->file_size_ = static_cast<uint64_t>(st.st_size);
  in->compressed_ = gzip;
  in->Refill();
  return in;
}

TraceInput::~TraceInput() {
  if (gz_ != nullptr) gzclose(gz_);
}

uint64_t TraceInput::file_offset() const {
  if (gz_ == nullptr) return file_size_;
  z_off_t off = compressed_ ? gzoffset(gz_) : gztell(gz_);
  return off < 0 ? 0 : static_cast<uint64_t>(off);
}

void TraceInput::Refill() {
  consumed_ += len_;
  pos_ = len_ = 0;
  if (gz_ == nullptr || !error_.empty()) return;
  int n = gzread(gz_, buf_.get(), static_cast<unsigned>(kChunk));
  if (n < 0) {
    error_ = GzMessage(gz_);
    return;
  }
  len_ = static_cast<size_t>(n);
  if (on_chunk_) on_chunk_(file_offset());
  if (n == 0 && compressed_) {
    // gzread returns 0 both at a clean end and at a cut stream: only gzerror tells.
    int code = 0;
    gzerror(gz_, &code);
    if (code != Z_OK && code != Z_STREAM_END) error_ = GzMessage(gz_);
  }
}

}  // namespace gsys::report::kineto
