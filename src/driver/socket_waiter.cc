#include "driver/socket_waiter.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/units.h"

namespace pgstorsim {
namespace {

constexpr int kMaxEvents = 64;

class EpollWaiter : public SocketWaiter {
 public:
  explicit EpollWaiter(int epfd) : epfd_(epfd) {}
  ~EpollWaiter() override { close(epfd_); }

  Status Add(int fd, uint32_t tag) override {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = tag;
    if (epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      return Status::Error(std::string("epoll_ctl(ADD): ") + std::strerror(errno));
    }
    return Status::Ok();
  }

  void Remove(int fd) override { epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr); }

  void Wait(int64_t timeout_ns, std::vector<uint32_t>* ready) override {
    ready->clear();
    int timeout_ms = static_cast<int>((timeout_ns + kNsPerMs - 1) / kNsPerMs);
    int n = epoll_wait(epfd_, events_, kMaxEvents, timeout_ms < 0 ? 0 : timeout_ms);
    for (int i = 0; i < n; ++i) ready->push_back(events_[i].data.u32);
  }

 private:
  int epfd_;
  epoll_event events_[kMaxEvents];
};

}  // namespace

StatusOr<std::unique_ptr<SocketWaiter>> NewSocketWaiter() {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return Status::Error(std::string("epoll_create1: ") + std::strerror(errno));
  return std::unique_ptr<SocketWaiter>(new EpollWaiter(epfd));
}

}  // namespace pgstorsim
