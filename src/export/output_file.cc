// SPDX-License-Identifier: Apache-2.0
#include "export/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "common/file_mode.h"
#include "common/rename_no_replace.h"

namespace gsys::export_ {
namespace {

std::string DirOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

Status Appeared(const std::string& path) {
  return Error(StatusCode::kIoError, "export: output '" + path +
                                         "' appeared while exporting (another run wrote it); not "
                                         "replaced (use -f/--force-overwrite=true)");
}

Status IoError(const std::string& path, int err) {
  return Error(StatusCode::kIoError,
               "export: cannot write '" + path + "': " + std::string(std::strerror(err)));
}

// Writes all of `data` to `fd`: 0, or the errno of the failure.
int WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

}  // namespace

// One background thread writing full buffers in order while the caller fills the next: the copy
// into the page cache is a large share of a big export (bench/RESULTS.md, "Export"). Up to
// kDepth buffers wait, so a writer the scheduler delays does not stall the caller at once.
struct OutputFile::Writer {
  static constexpr size_t kDepth = 4;

  Writer(int file, size_t buffer_capacity) : fd(file), capacity(buffer_capacity) {
    thread = std::thread([this] { Run(); });
  }
  ~Writer() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    wake.notify_all();
    thread.join();
  }
  // Queues `buffer`'s contents and gives it an empty buffer of the same capacity. Returns the
  // errno of an earlier failed write, or 0.
  int Submit(std::string& buffer) {
    std::unique_lock<std::mutex> lock(mu);
    idle.wait(lock, [&] { return queue.size() < kDepth || error != 0; });
    if (error != 0) return error;
    std::string next;
    if (!spare.empty()) {
      next = std::move(spare.back());
      spare.pop_back();
    } else {
      next.reserve(capacity);
    }
    queue.push_back(std::move(buffer));
    buffer = std::move(next);
    buffer.clear();
    wake.notify_one();
    return 0;
  }
  // Waits until every queued buffer is written; the first write's errno, or 0.
  int Wait() {
    std::unique_lock<std::mutex> lock(mu);
    idle.wait(lock, [&] { return (queue.empty() && !busy) || error != 0; });
    return error;
  }
  void Run() {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      wake.wait(lock, [&] { return !queue.empty() || stop; });
      if (queue.empty()) return;
      std::string data = std::move(queue.front());
      queue.pop_front();
      busy = true;
      bool failed = error != 0;  // after a failed write, later buffers are dropped
      lock.unlock();
      int err = failed ? 0 : WriteAll(fd, data);
      lock.lock();
      busy = false;
      if (err != 0) error = err;
      data.clear();
      spare.push_back(std::move(data));
      idle.notify_all();
    }
  }

  int fd;
  size_t capacity;
  std::mutex mu;
  std::condition_variable wake, idle;
  std::deque<std::string> queue;   // full buffers, oldest first
  std::vector<std::string> spare;  // written buffers, for reuse
  bool busy = false;
  bool stop = false;
  int error = 0;
  std::thread thread;  // last: starts once the members above exist
};

Status CheckOutput(const std::string& path, bool overwrite, bool directory) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!directory && S_ISDIR(st.st_mode)) {
      return Error(StatusCode::kIoError, "export: output '" + path + "' is a directory");
    }
    if (directory && !S_ISDIR(st.st_mode)) {
      return Error(StatusCode::kIoError, "export: output '" + path + "' is not a directory");
    }
    if (!overwrite) {
      return Error(StatusCode::kIoError,
                   "export: output '" + path + "' already exists (use -f/--force-overwrite=true)");
    }
  }
  std::string dir = DirOf(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Error(StatusCode::kIoError, "export: output directory '" + dir + "' does not exist");
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Error(StatusCode::kIoError, "export: output directory '" + dir + "' is not writable");
  }
  return OkStatus();
}

Result<OutputFile> OutputFile::Create(const std::string& path, bool replace, bool direct) {
  std::string tmp = direct ? path : path + ".tmp-XXXXXX";
  int fd = direct ? ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
                  : ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return IoError(path, errno);
  OutputFile file(fd, std::move(tmp), path, replace, direct);
  file.buffer_.reserve(kFlushBytes + (kFlushBytes >> 2));
  return file;
}

OutputFile::OutputFile(int fd, std::string tmp, std::string path, bool replace, bool direct)
    : fd_(fd), tmp_(std::move(tmp)), path_(std::move(path)), replace_(replace), direct_(direct) {}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      tmp_(std::move(other.tmp_)),
      path_(std::move(other.path_)),
      replace_(other.replace_),
      direct_(other.direct_),
      buffer_(std::move(other.buffer_)),
      bytes_(other.bytes_),
      writer_(std::move(other.writer_)) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    this->~OutputFile();
    new (this) OutputFile(std::move(other));
  }
  return *this;
}

OutputFile::~OutputFile() {
  writer_.reset();  // joins the writer before its fd closes
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

Status OutputFile::Flush() {
  if (buffer_.empty()) return OkStatus();
  bytes_ += static_cast<int64_t>(buffer_.size());
  if (!writer_) writer_ = std::make_unique<Writer>(fd_, buffer_.capacity());
  int err = writer_->Submit(buffer_);
  return err == 0 ? OkStatus() : IoError(path_, err);
}

Status OutputFile::Commit() {
  if (writer_) {
    GSYS_RETURN_IF_ERROR(Flush());
    int err = writer_->Wait();
    if (err != 0) return IoError(path_, err);
    writer_.reset();
  } else {
    // A small file: written here, no thread.
    int err = WriteAll(fd_, buffer_);
    if (err != 0) return IoError(path_, err);
    bytes_ += static_cast<int64_t>(buffer_.size());
    buffer_.clear();
  }
  ::fchmod(fd_, ModeUnderUmask(0666));  // as open(2) would have made it
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp_.c_str());
    return IoError(path_, err);
  }
  if (direct_) return OkStatus();
  int err = replace_ ? (::rename(tmp_.c_str(), path_.c_str()) == 0 ? 0 : errno)
                     : RenameNoReplace(tmp_.c_str(), path_.c_str());
  if (err != 0) {
    ::unlink(tmp_.c_str());
    return err == EEXIST ? Appeared(path_) : IoError(path_, err);
  }
  return OkStatus();
}

Result<OutputDirectory> OutputDirectory::Create(const std::string& path, bool replace) {
  std::string tmp = path + ".tmp-XXXXXX";
  if (::mkdtemp(tmp.data()) == nullptr) return IoError(path, errno);
  ::chmod(tmp.c_str(), ModeUnderUmask(0777));
  return OutputDirectory(std::move(tmp), path, replace);
}

OutputDirectory::OutputDirectory(OutputDirectory&& other) noexcept
    : tmp_(std::move(other.tmp_)),
      path_(std::move(other.path_)),
      replace_(other.replace_),
      committed_(other.committed_) {
  other.committed_ = true;
}

OutputDirectory::~OutputDirectory() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);
  }
}

Status OutputDirectory::Commit() {
  std::error_code ec;
  std::string old;
  if (replace_ && std::filesystem::exists(path_, ec)) {
    old = path_ + ".old-XXXXXX";
    if (::mkdtemp(old.data()) == nullptr || ::rename(path_.c_str(), (old + "/d").c_str()) != 0) {
      return IoError(path_, errno);
    }
  }
  int err = RenameNoReplace(tmp_.c_str(), path_.c_str());
  if (err != 0) return err == EEXIST || err == ENOTEMPTY ? Appeared(path_) : IoError(path_, err);
  committed_ = true;
  if (!old.empty()) std::filesystem::remove_all(old, ec);
  return OkStatus();
}

}  // namespace gsys::export_
