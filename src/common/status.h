// Status and StatusOr: errors as values across I/O and parsing boundaries.
//
// A Status is either OK or carries one human-readable line that names what failed
// (file, line, option or key). Code that must report an error to the user returns a
// Status; the CLI prints `pgstorsim: <message>` and exits non-zero. Thread safety:
// values, freely copyable.
#ifndef PGSTORSIM_COMMON_STATUS_H_
#define PGSTORSIM_COMMON_STATUS_H_

#include <cerrno>
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

template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  // REQUIRES: ok().
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T& operator*() const& { return *value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_STATUS_H_
