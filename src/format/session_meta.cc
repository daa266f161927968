// SPDX-License-Identifier: Apache-2.0
#include "format/session_meta.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gsys::format {
namespace {

std::string Escape(const std::string& s, bool key) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '=' && key) {
      out += "\\=";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string SerializeSessionMeta(const SessionMeta& meta) {
  std::string out;
  for (const auto& [k, v] : meta) out += Escape(k, true) + "=" + Escape(v, false) + "\n";
  return out;
}

SessionMeta ParseSessionMeta(const std::string& text) {
  SessionMeta meta;
  std::string key, value;
  bool in_key = true;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    std::string& cur = in_key ? key : value;
    if (c == '\\' && i + 1 < text.size()) {
      char n = text[++i];
      cur += n == 'n' ? '\n' : n;
    } else if (c == '=' && in_key) {
      in_key = false;
    } else if (c == '\n') {
      if (!in_key) meta[key] = value;
      key.clear();
      value.clear();
      in_key = true;
    } else {
      cur += c;
    }
  }
  if (!in_key) meta[key] = value;
  return meta;
}

Status WriteSessionMeta(const std::string& dir, const SessionMeta& meta) {
  std::string path = dir + "/" + kSessionMetaFile;
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) {
    return Error(StatusCode::kIoError, "cannot write '" + tmp + "': " + std::strerror(errno));
  }
  std::string text = SerializeSessionMeta(meta);
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Error(StatusCode::kIoError, "cannot write '" + path + "'");
  }
  return OkStatus();
}

Result<SessionMeta> ReadSessionMeta(const std::string& dir, uid_t* owner) {
  std::string path = dir + "/" + kSessionMetaFile;
  // A hostile session directory may hold a FIFO (open would block), a symlink or a huge file.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return Error(StatusCode::kNotFound, "no " + path);
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxSessionMetaBytes) {
    ::close(fd);
    return Error(StatusCode::kInvalidArgument, path + " is not a regular session.meta file");
  }
  if (owner != nullptr) *owner = st.st_uid;
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof(buf))) > 0) text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return ParseSessionMeta(text);
}

}  // namespace gsys::format
