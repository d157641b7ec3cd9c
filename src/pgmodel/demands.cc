// DemandSampler (demands.h): the first cycle from `pgbench -i`, the cycles after T/2
// and T, each run from a redo point to its WAL trigger or cap, and Simpson's mean of them.
#include "pgmodel/demands.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "pgmodel/demands_config.h"

namespace pgstorsim::pgmodel {
namespace {

constexpr int64_t kProbe = 1000;
// The length ProbeCycle gives a cycle whose probe logged no WAL.
constexpr double kNoWalCycle = 1e12;
constexpr uint64_t kSeed = 1;

using demands_config::Bucket;
using demands_config::CycleHost;
using demands_config::kMaxCycle;
using demands_config::kNoCap;
using demands_config::Memo;
using demands_config::ScenarioHostConfig;
using demands_config::Thinned;
using demands_config::ThinnedCap;

// Starts a cycle at a redo point with the host's counts reset.
void StartCycle(Host* host) {
  host->StartUnwrittenCheckpoint(0);
  host->ResetCounts();
}

// Runs the first kProbe transactions of a cycle just started and returns the cycle's
// length in transactions: as many as the WAL of those allows under the trigger
// `wal_trigger_bytes`, at least kProbe, kNoWalCycle when they logged none.
double ProbeCycle(Host* host, KeyGenerator* keys, int64_t wal_trigger_bytes) {
  host->RunTransactions(keys, kProbe);
  const double wal_per_txn = static_cast<double>(host->counts().wal_lsn_bytes) / kProbe;
  const double wanted =
      wal_per_txn > 0 ? static_cast<double>(wal_trigger_bytes) / wal_per_txn : kNoWalCycle;
  return std::max<double>(std::min(wanted, kNoWalCycle), kProbe);
}

// The per-transaction demands of the cycle the host ran since StartCycle.
HostDemands CycleDemands(const Host& host) {
  const HostCounts& n = host.counts();
  const double per = 1.0 / static_cast<double>(n.transactions);
  HostDemands d;
  d.page_writes = static_cast<double>(n.buffers_dirtied + n.extend_writes) * per;
  d.backend_writes = static_cast<double>(n.eviction_writes + n.extend_writes) * per;
  d.wal_record_bytes = static_cast<double>(n.wal_record_bytes) * per;
  d.wal_lsn_bytes = static_cast<double>(n.wal_lsn_bytes) * per;
  d.full_page_images = static_cast<double>(n.full_page_images) * per;
  d.non_hot_updates = static_cast<double>(n.non_hot_updates) * per;
  d.cycle_transactions = static_cast<int64_t>(n.transactions);
  return d;
}

// Runs the cycle begun with StartCycle on until the WAL inserted since its redo point
// reaches `wal_trigger_bytes` (PostgreSQL requests the checkpoint then: the WAL per
// transaction falls over a cycle as fewer changes are a page's first, so the cycle is
// longer than its first transactions' rate says), or `max_transactions` (the
// checkpoint_timeout's; at most kMaxCycle) in all. In
// batches of half the transactions the WAL rate so far says are left, so the last one
// ends within a transaction or two of the trigger.
bool RunToTrigger(Host* host, KeyGenerator* keys, int64_t wal_trigger_bytes,
                  int64_t max_transactions) {
  const int64_t most = std::clamp<int64_t>(max_transactions, 1, kMaxCycle);
  for (;;) {
    const HostCounts& n = host->counts();
    const int64_t done = static_cast<int64_t>(n.transactions);
    if (n.wal_lsn_bytes >= wal_trigger_bytes) return false;
    if (done >= most) return max_transactions <= kMaxCycle;
    int64_t batch = 1;
    if (done > 0 && n.wal_lsn_bytes > 0) {
      const double per_txn = static_cast<double>(n.wal_lsn_bytes) / static_cast<double>(done);
      const double left = static_cast<double>(wal_trigger_bytes - n.wal_lsn_bytes) / per_txn;
      batch = std::clamp<int64_t>(static_cast<int64_t>(left / 2), 1, most - done);
    }
    host->RunTransactions(keys, batch);
  }
}

// One cycle from a redo point to the WAL trigger or `max_transactions` (the host's
// state goes on from there).
HostDemands RunCycle(Host* host, KeyGenerator* keys, int64_t wal_trigger_bytes,
                     int64_t max_transactions) {
  StartCycle(host);
  const bool cut = RunToTrigger(host, keys, wal_trigger_bytes, max_transactions);
  HostDemands d = CycleDemands(*host);
  d.cycle_cut = cut;
  return d;
}

HostDemands Simpson(const HostDemands& a, const HostDemands& m, const HostDemands& b) {
  auto mean = [](double x, double y, double z) { return (x + 4 * y + z) / 6; };
  HostDemands d;
  d.page_writes = mean(a.page_writes, m.page_writes, b.page_writes);
  d.backend_writes = mean(a.backend_writes, m.backend_writes, b.backend_writes);
  d.wal_record_bytes = mean(a.wal_record_bytes, m.wal_record_bytes, b.wal_record_bytes);
  d.wal_lsn_bytes = mean(a.wal_lsn_bytes, m.wal_lsn_bytes, b.wal_lsn_bytes);
  d.full_page_images = mean(a.full_page_images, m.full_page_images, b.full_page_images);
  d.non_hot_updates = mean(a.non_hot_updates, m.non_hot_updates, b.non_hot_updates);
  d.cycle_transactions = a.cycle_transactions;
  d.cycle_cut = a.cycle_cut || m.cycle_cut || b.cycle_cut;
  return d;
}

}  // namespace

// The host after the first cycle from `pgbench -i`, the key stream where it stopped and
// the thinning factor its database has (1: none).
struct DemandSampler::Paused {
  std::unique_ptr<Host> host;
  KeyGenerator keys;
  HostDemands first;
  double thinning = 1;
  bool unchanging = false;  // The first kProbe transactions logged no WAL.
  int64_t cycle_cap = 0;    // The cycle's most transactions (whole database).
};

DemandSampler::DemandSampler(const HostConfig& config, double thin_above)
    : config_(config), thin_above_(thin_above) {}
DemandSampler::DemandSampler(const Scenario& scenario, int64_t os_held_pages)
    : config_(ScenarioHostConfig(scenario, os_held_pages)), thin_above_(kThinAbove) {}
DemandSampler::~DemandSampler() = default;

// Whether the paused first cycle is the one a cap of `cap` transactions gives: it ran
// under that cap, or it ended before the cap it ran under (at the WAL trigger or
// kMaxCycle) and is not longer than `cap`.
bool DemandSampler::FirstCycleHolds(const Paused& p, int64_t cap) {
  if (p.cycle_cap == cap || p.unchanging) return true;
  const int64_t length = p.first.cycle_transactions;  // On the thinned database.
  return length < ThinnedCap(p.cycle_cap, p.thinning) && length <= ThinnedCap(cap, p.thinning);
}

// The first cycle from `pgbench -i`, on the scenario's database, or on a thinned one
// when the probe says the cycle is longer than thin_above_ transactions.
Status DemandSampler::RunFirstCycle(int64_t cap) {
  auto made = CycleHost(config_);
  if (!made.ok()) return made.status();
  auto paused = std::make_unique<Paused>(
      Paused{std::move(made).value(), ClientKeys(config_.scale, kSeed, 0), {}, 1, false, cap});
  StartCycle(paused->host.get());
  const double wanted = ProbeCycle(paused->host.get(), &paused->keys, config_.checkpoint_wal_bytes);
  // Nothing written: no checkpoint ends the cycle and nothing changes over the run.
  paused->unchanging = !(wanted < kNoWalCycle);
  bool cut = false;
  if (!paused->unchanging) {
    HostConfig thinned = config_;
    if (wanted > thin_above_ && config_.measured_relations.is_null()) {
      thinned = Thinned(config_, wanted / kThinnedCycle, &paused->thinning);
    }
    if (paused->thinning > 1) {
      auto small = CycleHost(thinned);
      if (!small.ok()) return small.status();
      paused->host = std::move(small).value();
      paused->keys = ClientKeys(thinned.scale, kSeed, 0);
      StartCycle(paused->host.get());
    }
    cut = RunToTrigger(paused->host.get(), &paused->keys, thinned.checkpoint_wal_bytes,
                       ThinnedCap(cap, paused->thinning));
  }
  paused->first = CycleDemands(*paused->host);
  paused->first.cycle_cut = cut;
  paused_ = std::move(paused);
  return Status::Ok();
}

// The first cycle (run once per sampler); then, for a run longer than twice the cycle,
// skip to T/2, a cycle, skip on to T, a cycle, which uses up the paused host. On a
// thinned database the run is T / k and the cycles' lengths are reported k times theirs.
StatusOr<HostDemands> DemandSampler::Sample(double run_transactions,
                                            double max_cycle_transactions) {
  const int64_t bucket = Bucket(run_transactions);
  const int64_t cap = !(max_cycle_transactions < kUncapped)
                          ? kNoCap
                          : std::max<int64_t>(1, Bucket(max_cycle_transactions));
  const Memo::Key key = Memo::KeyOf(config_, bucket, thin_above_, cap);
  HostDemands d;
  if (Memo::Find(key, &d)) return d;
  if (paused_ != nullptr && !FirstCycleHolds(*paused_, cap)) paused_.reset();
  if (paused_ == nullptr) {
    if (Status s = RunFirstCycle(cap); !s.ok()) return s;
  }
  d = paused_->first;
  const double k = paused_->thinning;
  const int64_t run = std::llround(static_cast<double>(bucket) / k);
  const int64_t cycle = d.cycle_transactions;
  if (run > 2 * cycle && !paused_->unchanging) {
    Host* host = paused_->host.get();
    KeyGenerator* keys = &paused_->keys;
    const int64_t trigger = std::llround(static_cast<double>(config_.checkpoint_wal_bytes) / k);
    host->Reserve(run);  // The skips and the two cycles: run transactions in all.
    host->SkipTransactions(keys, run / 2 - cycle);
    const int64_t most = ThinnedCap(cap, k);
    const HostDemands mid = RunCycle(host, keys, trigger, most);
    host->SkipTransactions(keys, run - (run / 2 + cycle));
    const HostDemands last = RunCycle(host, keys, trigger, most);
    d = Simpson(paused_->first, mid, last);
    paused_.reset();
  }
  d.cycle_transactions = std::llround(static_cast<double>(cycle) * k);
  Memo::Store(key, d);
  return d;
}

StatusOr<HostDemands> SampleDemands(const HostConfig& c, double run_transactions) {
  return DemandSampler(c).Sample(run_transactions);
}

StatusOr<HostDemands> SampleDemands(const Scenario& s, double run_transactions) {
  return DemandSampler(s).Sample(run_transactions);
}

}  // namespace pgstorsim::pgmodel
