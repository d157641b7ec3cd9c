// SocketWaiter: input is reported by tag, a wait without deadline ends on the tick
// (which is never reported as input), and removed sockets are no longer reported.
#include "driver/socket_waiter.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/units.h"

namespace pgstorsim {
namespace {

class SocketWaiterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, a_), 0);
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, b_), 0);
    auto w = NewSocketWaiter(5 * kNsPerMs);
    ASSERT_TRUE(w.ok()) << w.status().message();
    waiter_ = std::move(w).value();
    ASSERT_TRUE(waiter_->Add(a_[0], 7).ok());
    ASSERT_TRUE(waiter_->Add(b_[0], 9).ok());
  }
  void TearDown() override {
    for (int fd : {a_[0], a_[1], b_[0], b_[1]}) close(fd);
  }

  int a_[2] = {-1, -1};
  int b_[2] = {-1, -1};
  std::unique_ptr<SocketWaiter> waiter_;
  std::vector<uint32_t> ready_;
};

TEST_F(SocketWaiterTest, ReportsTheTagOfTheSocketWithInput) {
  ASSERT_EQ(write(b_[1], "x", 1), 1);
  waiter_->Wait(SocketWaiter::kNoDeadline, &ready_);
  ASSERT_EQ(ready_.size(), 1u);
  EXPECT_EQ(ready_[0], 9u);
  // Level-triggered: unread input is reported again, even by a zero-timeout check.
  waiter_->Wait(0, &ready_);
  EXPECT_EQ(ready_, std::vector<uint32_t>{9u});
}

TEST_F(SocketWaiterTest, WaitWithoutDeadlineEndsOnTheTickWithNothingReady) {
  // Without input the only thing that can end these waits is the 5 ms tick; the tick
  // itself is consumed, not reported (a hang here means the tick does not work).
  for (int i = 0; i < 3; ++i) {
    waiter_->Wait(SocketWaiter::kNoDeadline, &ready_);
    EXPECT_TRUE(ready_.empty());
  }
}

TEST_F(SocketWaiterTest, RemovedSocketIsNotReported) {
  waiter_->Remove(a_[0]);
  ASSERT_EQ(write(a_[1], "x", 1), 1);
  ASSERT_EQ(write(b_[1], "y", 1), 1);
  waiter_->Wait(SocketWaiter::kNoDeadline, &ready_);
  EXPECT_EQ(ready_, std::vector<uint32_t>{9u});
}

TEST_F(SocketWaiterTest, HangUpIsReported) {
  close(a_[1]);
  a_[1] = -1;
  waiter_->Wait(SocketWaiter::kNoDeadline, &ready_);
  EXPECT_EQ(ready_, std::vector<uint32_t>{7u});
}

}  // namespace
}  // namespace pgstorsim
