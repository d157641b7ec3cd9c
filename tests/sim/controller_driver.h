// Test support for src/sim's controller: a closed-loop request driver and a run of
// it on a fresh simulator. Header-only, for tests/sim.
#ifndef PGSTORSIM_TESTS_SIM_CONTROLLER_DRIVER_H_
#define PGSTORSIM_TESTS_SIM_CONTROLLER_DRIVER_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "common/units.h"
#include "sim/controller.h"
#include "sim/simulator.h"

namespace pgstorsim::sim {

// Keeps `concurrency` requests outstanding until `total` completed; each request is
// produced by `next` from a seeded stream.
class ClosedDriver : public IoListener {
 public:
  using Gen = std::function<VolumeOp(Random&)>;
  ClosedDriver(Simulator* sim, Controller* c, int concurrency, int64_t total, Gen next)
      : sim_(sim), c_(c), rng_(sim->ForkRandom(77)), total_(total), next_(std::move(next)) {
    starts_.resize(concurrency);
    for (int i = 0; i < concurrency; ++i) Issue(i);
  }
  void OnIoDone(uint64_t token) override {
    sum_ns_ += sim_->now_ns() - starts_[token];
    ++done_;
    last_ns_ = sim_->now_ns();
    Issue(token);
  }
  double mean_ms() const { return sum_ns_ / done_ / 1e6; }
  double rate_per_s() const { return done_ / NsToSec(last_ns_); }
  int64_t done() const { return done_; }

 private:
  void Issue(uint64_t slot) {
    if (issued_ >= total_) return;
    ++issued_;
    starts_[slot] = sim_->now_ns();
    c_->Submit(next_(rng_), this, slot);
  }
  Simulator* sim_;
  Controller* c_;
  Random rng_;
  int64_t total_;
  Gen next_;
  std::vector<int64_t> starts_;
  int64_t issued_ = 0, done_ = 0, last_ns_ = 0;
  double sum_ns_ = 0;
};

inline ArrayGeometry Geometry(RaidLevel level, int members, int64_t stripe) {
  ArrayGeometry g;
  g.level = level;
  g.members = members;
  g.stripe_unit_bytes = stripe;
  return g;
}

inline SimControllerConfig NoCache() {
  SimControllerConfig c;
  c.has_cache = false;
  c.read_ahead = ReadAhead::kNone;
  return c;
}

// Requests of `bytes` at consecutive offsets from 0 (a sequential stream).
inline ClosedDriver::Gen Sequential(IoOp op, int64_t bytes) {
  return [op, bytes, next = int64_t{0}](Random&) mutable {
    const VolumeOp request{op, next, bytes};
    next += bytes;
    return request;
  };
}

struct DriveRun {
  double mean_ms, rate;
  ControllerStats stats;
  std::unique_ptr<Controller> controller;
};

inline DriveRun Drive(const SimControllerConfig& cc, const ArrayGeometry& g, int concurrency, int64_t n,
               ClosedDriver::Gen gen, SimDiskConfig disk = SimDiskConfig()) {
  Simulator sim(5);
  auto c = Controller::Create(cc, g, disk, sim);
  EXPECT_TRUE(c.ok()) << c.status().message();
  std::unique_ptr<Controller> controller = std::move(c).value();
  ClosedDriver d(&sim, controller.get(), concurrency, n, std::move(gen));
  sim.RunUntil(INT64_MAX);
  EXPECT_EQ(d.done(), n);
  return {d.mean_ms(), d.rate_per_s(), controller->stats(), std::move(controller)};
}

}  // namespace pgstorsim::sim

#endif  // PGSTORSIM_TESTS_SIM_CONTROLLER_DRIVER_H_
