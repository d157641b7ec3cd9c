// Status and StatusOr: errors as values across I/O and parsing boundaries.
//
// A Status is either OK or carries one human-readable line that names what failed
// (file, line, option or key). Code that must report an error to the user returns a
// Status; the CLI prints `pgstorsim: <message>` and exits non-zero. Thread safety:
// values, freely copyable.
#ifndef PGSTORSIM_COMMON_STATUS_H_
#define PGSTORSIM_COMMON_STATUS_H_

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace pgstorsim {

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  // REQUIRES: !ok().
  const std::string& message() const { return *message_; }
  // Returns a Status whose message is "<context>: <message>" (OK stays OK).
  Status WithContext(const std::string& context) const {
    return ok() ? *this : Status(context + ": " + *message_);
  }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

// "<what>: <strerror(errno)>"; call it right after the failing system call (errno is
// read here), e.g. ErrnoError("cannot open " + path).
inline Status ErrnoError(const std::string& what) {
  return Status::Error(what + ": " + std::strerror(errno));
}

// Prints "pgstorsim: value of an error: <message>" to stderr and aborts: a StatusOr read
// without checking ok() is a bug, never a result.
[[noreturn]] inline void AbortOnErrorValue(const Status& status) {
  std::fprintf(stderr, "pgstorsim: value of an error: %s\n",
               status.ok() ? "(no value and no error)" : status.message().c_str());
  std::abort();
}

// A value or the error that kept it from being made. Reading the value (value(), *,
// ->) of an error aborts with the error's message (AbortOnErrorValue).
template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  // REQUIRES: ok(); else aborts with the error's message.
  const T& value() const& { return Checked(); }
  T& value() & { return Checked(); }
  T&& value() && { return std::move(Checked()); }
  const T& operator*() const& { return Checked(); }
  const T* operator->() const { return &Checked(); }

 private:
  const T& Checked() const {
    if (!value_.has_value()) AbortOnErrorValue(status_);
    return *value_;
  }
  T& Checked() {
    if (!value_.has_value()) AbortOnErrorValue(status_);
    return *value_;
  }

  std::optional<T> value_;
  Status status_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_STATUS_H_
