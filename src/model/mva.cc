#include "model/mva.h"

#include <algorithm>
#include <cmath>

namespace pgstorsim {
namespace {

// The exact load-dependent recursion of a c-server station (mva.h).
class MultiServerRecursion {
 public:
  explicit MultiServerRecursion(const MultiServerStation& s)
      : d_(s.demand_ms), c_(std::max(1, s.servers)), p_(c_, 0.0) {
    p_[0] = 1;  // No customer: none present.
  }
  bool present() const { return d_ > 0; }
  // R(n) from the state after n - 1 customers.
  double Residence() const {
    double idle = 0;  // sum_{j=0}^{c-2} (c - 1 - j) p_j
    for (int j = 0; j + 1 < c_; ++j) idle += (c_ - 1 - j) * p_[j];
    return d_ / c_ * (1 + q_ + idle);
  }
  // The state after n customers at throughput x and residence r; x_without: the
  // throughput of the network without this station at n customers (0: infinite).
  void Update(double x, double r, double x_without) {
    q_ = x * r;
    for (int j = c_ - 1; j >= 1; --j) p_[j] = x * d_ / j * p_[j - 1];
    p_[0] = x_without > 0 ? p_[0] * x / x_without : 0;
  }
  double utilization(double x) const { return x * d_ / c_; }

 private:
  double d_;
  int c_;
  std::vector<double> p_;  // p_j for j = 0..c-1.
  double q_ = 0;
};

// X'(n) of the network without the multi-server station: the load-independent queues
// and the delay, one customer more per call (0 when they hold no time: infinite).
class Complement {
 public:
  Complement(const std::vector<double>& demands_ms, double delay_ms)
      : d_(demands_ms), z_(delay_ms), q_(demands_ms.size(), 0.0) {}
  double Next(int n) {
    std::vector<double> r(d_.size());
    double total = z_;
    for (size_t i = 0; i < d_.size(); ++i) total += r[i] = d_[i] * (1 + q_[i]);
    const double x = total > 0 ? n / total : 0;
    for (size_t i = 0; i < d_.size(); ++i) q_[i] = x * r[i];
    return x;
  }

 private:
  const std::vector<double>& d_;
  double z_;
  std::vector<double> q_;
};

// The same for a pacer network (SolvePacedMva's recursion without the station).
class PacedComplement {
 public:
  PacedComplement(const std::vector<double>& demands_ms, double delay_ms)
      : d_(demands_ms), z_(delay_ms), q_(demands_ms.size(), 0.0), u_(demands_ms.size(), 0.0) {
    for (double d : d_) max_demand_ = std::max(max_demand_, d);
  }
  double Next(int n) {
    std::vector<double> r(d_.size());
    double total = z_;
    for (size_t i = 0; i < d_.size(); ++i) total += r[i] = d_[i] * (q_[i] + u_[i] / 2);
    double x = total > 0 ? n / total : 0;
    if (max_demand_ > 0) x = std::min(x, 1 / max_demand_);
    for (size_t i = 0; i < d_.size(); ++i) {
      q_[i] = x * r[i];
      u_[i] = x * d_[i];
    }
    return x;
  }

 private:
  const std::vector<double>& d_;
  double z_;
  std::vector<double> q_, u_;
  double max_demand_ = 0;
};

// What both solvers carry from one customer count to the next: the multi-server
// station's recursion, the network without it (`Without`), and the result with zeroed
// per-station vectors (the queues first, the multi-server station last when present).
template <typename Without>
struct Recursion {
  Recursion(const std::vector<double>& demands_ms, double delay_ms, const MultiServerStation& multi)
      : queues(demands_ms.size()), delay_ms(delay_ms), cpu(multi), without(demands_ms, delay_ms) {
    const size_t stations = queues + (cpu.present() ? 1 : 0);
    r.residence_ms.assign(stations, 0);
    r.queue_length.assign(stations, 0);
    r.utilization.assign(stations, 0);
  }
  // Z + sum R at the next customer count; stores each queue's R = `queue_residence(i)`
  // and the multi-server station's in r.residence_ms, summed in station order.
  template <typename QueueResidence>
  double CycleMs(QueueResidence queue_residence) {
    double total = delay_ms;
    for (size_t i = 0; i < queues; ++i) {
      r.residence_ms[i] = queue_residence(i);
      total += r.residence_ms[i];
    }
    if (cpu.present()) total += r.residence_ms[queues] = cpu.Residence();
    return total;
  }

  const size_t queues;
  const double delay_ms;
  MultiServerRecursion cpu;
  Without without;
  MvaResult r;
};

}  // namespace

MvaResult SolveMva(int clients, const std::vector<double>& demands_ms, double delay_ms,
                   const MultiServerStation& multi) {
  Recursion<Complement> net(demands_ms, delay_ms, multi);
  MvaResult& r = net.r;
  const size_t k = net.queues;
  for (int n = 1; n <= clients; ++n) {
    const double total =
        net.CycleMs([&](size_t i) { return demands_ms[i] * (1 + r.queue_length[i]); });
    r.throughput_per_ms = total > 0 ? n / total : 0;
    r.cycle_ms = total;
    for (size_t i = 0; i < r.queue_length.size(); ++i)
      r.queue_length[i] = r.throughput_per_ms * r.residence_ms[i];
    if (net.cpu.present())
      net.cpu.Update(r.throughput_per_ms, r.residence_ms[k], net.without.Next(n));
  }
  for (size_t i = 0; i < k; ++i) r.utilization[i] = r.throughput_per_ms * demands_ms[i];
  if (net.cpu.present()) r.utilization[k] = net.cpu.utilization(r.throughput_per_ms);
  return r;
}

MvaResult SolvePacedMva(int clients, const std::vector<double>& demands_ms, double delay_ms,
                        const MultiServerStation& multi) {
  Recursion<PacedComplement> net(demands_ms, delay_ms, multi);
  MvaResult& r = net.r;
  const size_t k = net.queues;
  double max_demand = 0;
  for (double d : demands_ms) max_demand = std::max(max_demand, d);
  if (net.cpu.present())
    max_demand = std::max(max_demand, multi.demand_ms / std::max(1, multi.servers));
  for (int n = 1; n <= clients; ++n) {
    const double total = net.CycleMs(
        [&](size_t i) { return demands_ms[i] * (r.queue_length[i] + r.utilization[i] / 2); });
    double x = total > 0 ? n / total : 0;
    if (max_demand > 0) x = std::min(x, 1 / max_demand);
    r.throughput_per_ms = x;
    r.cycle_ms = x > 0 ? n / x : total;
    for (size_t i = 0; i < k; ++i) {
      r.queue_length[i] = x * r.residence_ms[i];
      r.utilization[i] = x * demands_ms[i];
    }
    if (net.cpu.present()) {
      r.queue_length[k] = x * r.residence_ms[k];
      r.utilization[k] = net.cpu.utilization(x);
      net.cpu.Update(x, r.residence_ms[k], net.without.Next(n));
    }
  }
  return r;
}

double ForkJoinFactor(double k) {
  if (k <= 1) return 1;
  const int whole = static_cast<int>(std::floor(k));
  double h = 0;
  for (int i = 1; i <= whole; ++i) h += 1.0 / i;
  return h + (k - whole) / (whole + 1);
}

double SplitReadWaitedShare(double k, double fork_join_weight) {
  if (!(k > 1)) return 1;
  return std::min(1.0, (1 + fork_join_weight * (ForkJoinFactor(k) - 1)) / k);
}

double HeldAtBottleneck(double x_per_ms, double busiest_ms) {
  return busiest_ms > 0 ? std::min(x_per_ms, 1 / busiest_ms) : x_per_ms;
}

}  // namespace pgstorsim
