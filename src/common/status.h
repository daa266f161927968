// SPDX-License-Identifier: Apache-2.0
// Status and Result<T>: the error model of gsys (no exceptions in project code).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gsys {

// Error categories; the CLI maps each to an exit code (cli/exit_codes.h).
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad flag, bad report argument, unknown name
  kNotFound,         // missing file
  kBadInput,         // file exists but is not a readable report
  kUnsupported,      // report newer than this reader, feature not available
  kIoError,          // cannot write output
  kNoData,           // a report found nothing to show (SKIPPED)
  kInternal,         // a bug
};

// Status holds success or an error code with a one-line, lowercase message
// that starts with the verb or module ("stats: unknown report 'x'").
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status Error(StatusCode code, std::string message) {
  return Status(code, std::move(message));
}

// Result<T> holds a value or a non-ok Status. Our own alias so the
// implementation can move to std::expected later.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(data_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(data_);
  }
  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<Status, T> data_;
};

}  // namespace gsys

#define GSYS_CONCAT_INNER_(a, b) a##b
#define GSYS_CONCAT_(a, b) GSYS_CONCAT_INNER_(a, b)

#define GSYS_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::gsys::Status gsys_status_ = (expr);        \
    if (!gsys_status_.ok()) return gsys_status_; \
  } while (0)

#define GSYS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

#define GSYS_ASSIGN_OR_RETURN(lhs, expr) \
  GSYS_ASSIGN_OR_RETURN_IMPL_(GSYS_CONCAT_(gsys_result_, __LINE__), lhs, expr)
