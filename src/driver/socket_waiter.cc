#include "driver/socket_waiter.h"

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "common/units.h"

namespace pgstorsim {
namespace {

constexpr int kMaxEvents = 64;
constexpr uint32_t kTickTag = UINT32_MAX;

class EpollWaiter : public SocketWaiter {
 public:
  EpollWaiter(int epfd, int timerfd) : epfd_(epfd), timerfd_(timerfd) {}
  ~EpollWaiter() override {
    close(epfd_);
    close(timerfd_);
  }

  Status Add(int fd, uint32_t tag) override {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = tag;
    if (epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) != 0) return ErrnoError("epoll_ctl(ADD)");
    return Status::Ok();
  }

  void Remove(int fd) override { epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr); }

  void Wait(int64_t timeout_ns, std::vector<uint32_t>* ready) override {
    ready->clear();
    int timeout_ms = -1;
    if (timeout_ns >= 0) {
      timeout_ms =
          static_cast<int>(std::min<int64_t>((timeout_ns + kNsPerMs - 1) / kNsPerMs, INT_MAX));
    }
    int n = epoll_wait(epfd_, events_, kMaxEvents, timeout_ms);
    for (int i = 0; i < n; ++i) {
      if (events_[i].data.u32 != kTickTag) {
        ready->push_back(events_[i].data.u32);
        continue;
      }
      uint64_t expirations = 0;
      if (read(timerfd_, &expirations, sizeof expirations) < 0) {
        // EAGAIN: already consumed; nothing else can fail on a valid timerfd.
      }
    }
  }

 private:
  int epfd_;
  int timerfd_;
  epoll_event events_[kMaxEvents];
};

}  // namespace

StatusOr<std::unique_ptr<SocketWaiter>> NewSocketWaiter(int64_t tick_ns) {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return ErrnoError("epoll_create1");
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (tfd < 0) {
    Status s = ErrnoError("timerfd_create");
    close(epfd);
    return s;
  }
  auto waiter = std::make_unique<EpollWaiter>(epfd, tfd);  // Owns both fds from here.
  itimerspec period{};
  period.it_interval.tv_sec = tick_ns / kNsPerSec;
  period.it_interval.tv_nsec = tick_ns % kNsPerSec;
  period.it_value = period.it_interval;
  if (timerfd_settime(tfd, 0, &period, nullptr) != 0) return ErrnoError("timerfd_settime");
  Status s = waiter->Add(tfd, kTickTag);
  if (!s.ok()) return s;
  return std::unique_ptr<SocketWaiter>(std::move(waiter));
}

}  // namespace pgstorsim
