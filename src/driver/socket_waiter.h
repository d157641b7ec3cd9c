// SocketWaiter: waits until one of a set of sockets has input (Linux epoll,
// level-triggered). Each engine thread keeps one for its clients' connections; the
// sockets stay registered between waits, so a wait costs the same for 1 or 100
// connections (poll() re-registers every socket on every call).
//
// Waits without a deadline arm no timer of their own: a periodic timer (a timerfd in
// the same epoll set, armed once) ends them at least every tick, so the caller can
// poll its stop flags. Arming a timeout on each of the ~7 waits per transaction cost
// about 10 % more client CPU per transaction (measured in docs/driver.md).
// Thread safety: one thread per waiter.
#ifndef PGSTORSIM_DRIVER_SOCKET_WAITER_H_
#define PGSTORSIM_DRIVER_SOCKET_WAITER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

class SocketWaiter {
 public:
  static constexpr int64_t kNoDeadline = -1;

  virtual ~SocketWaiter() = default;

  // Watches `fd` for input (and hang-up); Wait reports it as `tag`.
  // REQUIRES: fd >= 0 and not watched already; tag != UINT32_MAX (reserved).
  virtual Status Add(int fd, uint32_t tag) = 0;
  // Stops watching `fd`. Call before the socket is closed; unknown fds are ignored.
  virtual void Remove(int fd) = 0;
  // Waits until a watched socket has input or hang-up, a signal arrives (EINTR), the
  // periodic tick fires, or timeout_ns has passed (0 = just check; kNoDeadline = no
  // timeout of its own). Sets *ready to the tags of the sockets with input or
  // hang-up (cleared first; empty on timeout, tick or EINTR).
  virtual void Wait(int64_t timeout_ns, std::vector<uint32_t>* ready) = 0;
};

// tick_ns > 0: the period of the tick that ends waits (timerfd, CLOCK_MONOTONIC).
// Errors: epoll or timerfd creation failed (file descriptor limit).
StatusOr<std::unique_ptr<SocketWaiter>> NewSocketWaiter(int64_t tick_ns);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_SOCKET_WAITER_H_
