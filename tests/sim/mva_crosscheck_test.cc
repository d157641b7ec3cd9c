// The kernel and the disk queues against exact mean value analysis: a closed network
// of exponential FCFS disks with random routing and an exponential think time is
// product-form, so the simulated throughput must match the MVA recursion (written out
// here, so the sim tests do not depend on src/model being built).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "common/units.h"
#include "sim/disk.h"
#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

// Exact MVA: R_k(n) = D_k (1 + Q_k(n-1)), X(n) = n / (Z + sum R_k), Q_k(n) = X R_k.
double MvaThroughputPerMs(int clients, const std::vector<double>& demands_ms, double think_ms) {
  std::vector<double> queue(demands_ms.size(), 0.0);
  double x = 0;
  for (int n = 1; n <= clients; ++n) {
    std::vector<double> residence(demands_ms.size());
    double total = think_ms;
    for (size_t k = 0; k < demands_ms.size(); ++k) {
      residence[k] = demands_ms[k] * (1 + queue[k]);
      total += residence[k];
    }
    x = n / total;
    for (size_t k = 0; k < demands_ms.size(); ++k) queue[k] = x * residence[k];
  }
  return x;
}

class ClosedNetwork : public EventHandler, public IoListener {
 public:
  ClosedNetwork(Simulator* sim, std::vector<std::unique_ptr<Disk>>* disks, int clients,
                double think_ms)
      : sim_(sim), disks_(disks), rng_(sim->ForkRandom(3)), think_ns_(think_ms * kNsPerMs) {
    for (int c = 0; c < clients; ++c) Think(c);
  }
  void HandleEvent(const Event& e) override {  // Think time over: one I/O.
    const int64_t d = rng_.UniformInt(0, static_cast<int64_t>(disks_->size()) - 1);
    (*disks_)[d]->Submit({IoOp::kRead, 0, 8192}, this, e.payload);
  }
  void OnIoDone(uint64_t client) override {
    ++completions_;
    Think(client);
  }
  uint64_t completions_ = 0;

 private:
  void Think(uint64_t c) {
    sim_->Schedule(static_cast<int64_t>(rng_.Exponential(think_ns_)), this, 0, c);
  }
  Simulator* sim_;
  std::vector<std::unique_ptr<Disk>>* disks_;
  Random rng_;
  double think_ns_;
};

TEST(MvaCrossCheckTest, ClosedNetworkOfExponentialDisksMatchesExactMva) {
  const double service_ms = 5.0;
  const double think_ms = 10.0;
  for (int clients : {1, 4, 16}) {
    for (int k : {1, 4}) {
      Simulator sim(17);
      SimDiskConfig c;
      c.kind = DiskKind::kExponential;
      c.mean_service_ns = MsToNs(service_ms);
      std::vector<std::unique_ptr<Disk>> disks;
      for (int i = 0; i < k; ++i) disks.push_back(CreateDisk(c, sim, i, "d"));
      ClosedNetwork net(&sim, &disks, clients, think_ms);
      const int64_t end_ns = 1000 * kNsPerSec;
      sim.RunUntil(end_ns);
      const double simulated_per_ms = net.completions_ / (end_ns / 1e6);
      const std::vector<double> demands(k, service_ms / k);  // Visit ratio 1/k each.
      const double mva_per_ms = MvaThroughputPerMs(clients, demands, think_ms);
      EXPECT_NEAR(simulated_per_ms, mva_per_ms, 0.03 * mva_per_ms)
          << clients << " clients, " << k << " disks";
    }
  }
}

}  // namespace
}  // namespace pgstorsim::sim
