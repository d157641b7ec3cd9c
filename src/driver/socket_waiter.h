// SocketWaiter: waits until one of a set of sockets has input (Linux epoll,
// level-triggered). Each engine thread keeps one for its clients' connections; the
// sockets stay registered between waits, so a wait costs the same for 1 or 100
// connections (poll() re-registers every socket on every call).
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
  virtual ~SocketWaiter() = default;

  // Watches `fd` for input (and hang-up); Wait reports it as `tag`.
  // REQUIRES: fd >= 0 and not watched already.
  virtual Status Add(int fd, uint32_t tag) = 0;
  // Stops watching `fd`. Call before the socket is closed; unknown fds are ignored.
  virtual void Remove(int fd) = 0;
  // Waits up to timeout_ns (0 = just check) and sets *ready to the tags of the
  // sockets with input or hang-up (cleared first; empty on timeout or EINTR).
  virtual void Wait(int64_t timeout_ns, std::vector<uint32_t>* ready) = 0;
};

StatusOr<std::unique_ptr<SocketWaiter>> NewSocketWaiter();

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_SOCKET_WAITER_H_
