// The simulator's parts report themselves (Component::Start and Report): each writes
// its own sections of the results, and a run's document holds exactly the sections of
// the engine and its parts.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "common/units.h"
#include "sim/host_cpu.h"
#include "sim/results_writer.h"
#include "sim/row_lock_waits.h"
#include "sim/run_simulation.h"
#include "sim/wal.h"

namespace pgstorsim::sim {
namespace {

TEST(ComponentsTest, HostCpuQueuesOnTheFirstFreeCoreAndReportsUtilization) {
  Simulator sim(1);
  HostCpu cpu(sim, 2);
  EXPECT_EQ(cpu.Run(10), 10);
  EXPECT_EQ(cpu.Run(10), 10);
  EXPECT_EQ(cpu.Run(10), 20);  // Both cores busy until 10.
  Results r;
  ResultsWriter out(&r, 40);
  cpu.Report(out);
  EXPECT_EQ(r.sections["cpu"]["cores"], 2);
  EXPECT_DOUBLE_EQ(r.sections["cpu"]["utilization"].get<double>(), 30.0 / (40 * 2));
}

TEST(ComponentsTest, RowLockWaitsCountTheWaitOfTheLockingStatement) {
  const std::vector<Statement> statements = {Statement::kUpdateAccounts,
                                             Statement::kSelectAccounts};
  RowLockWaits locks(true, 2, statements);
  TxnKeys keys;
  keys.aid = 5;
  EXPECT_TRUE(locks.Acquire(Statement::kUpdateAccounts, keys, 0, 0));
  EXPECT_TRUE(locks.Acquire(Statement::kSelectAccounts, keys, 1, 50));  // Locks no row.
  EXPECT_FALSE(locks.Acquire(Statement::kUpdateAccounts, keys, 1, 100));
  std::vector<uint32_t> granted;
  locks.ReleaseAll(0, &granted);
  ASSERT_EQ(granted, std::vector<uint32_t>({1}));
  locks.Granted(Statement::kUpdateAccounts, 1, 100 + 2 * kNsPerMs);
  Results r;
  ResultsWriter out(&r, kNsPerSec);
  locks.Report(out);
  const nlohmann::json& section = r.sections["row_locks"];
  EXPECT_EQ(section["enabled"], true);
  EXPECT_EQ(section["waits"], 1);
  EXPECT_DOUBLE_EQ(section["wait_ms_total"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(section["by_statement"]["UPDATE accounts"]["wait_ms_mean"].get<double>(), 2.0);
  EXPECT_FALSE(section["by_statement"].contains("SELECT accounts"));
}

TEST(ComponentsTest, DisabledRowLocksGrantEveryLockAndSaySo) {
  RowLockWaits locks(false, 2, {Statement::kUpdateAccounts});
  TxnKeys keys;
  EXPECT_TRUE(locks.Acquire(Statement::kUpdateAccounts, keys, 0, 0));
  EXPECT_TRUE(locks.Acquire(Statement::kUpdateAccounts, keys, 1, 0));
  Results r;
  ResultsWriter out(&r, kNsPerSec);
  locks.Report(out);
  EXPECT_EQ(r.sections["row_locks"]["enabled"], false);
  EXPECT_EQ(r.sections["row_locks"]["waits"], 0);
}

class NoWaiter : public WalWaiter {
 public:
  void OnWalFlushed(uint32_t) override { ADD_FAILURE() << "nobody waits"; }
};

TEST(ComponentsTest, WalWriterStartsItsRoundsOnlyWhenConfigured) {
  NoWaiter waiter;
  {
    Simulator sim(1);
    WalLog wal(sim, nullptr, nullptr, &waiter, 0);  // Synchronous commit: no writer.
    wal.Start();
    EXPECT_EQ(sim.pending_events(), 0u);
  }
  Simulator sim(1);
  WalLog wal(sim, nullptr, nullptr, &waiter, 200 * kNsPerMs);
  wal.Inserted(1000);
  wal.Start();
  sim.RunUntil(500 * kNsPerMs);  // Rounds at 200 and 400 ms; only the first has work.
  Results r;
  ResultsWriter out(&r, 500 * kNsPerMs);
  wal.Report(out);
  EXPECT_EQ(r.sections["wal"]["flushes"], 1);
  EXPECT_EQ(r.sections["wal"]["bytes_inserted"], 1000);
  EXPECT_EQ(r.sections["wal"]["ideal_device"], true);
}

TEST(ComponentsTest, ARunHoldsTheSectionsOfTheEngineAndEachPart) {
  SimConfig c;
  c.host.scale = 1;
  c.clients = 2;
  c.transactions_per_client = 200;
  c.array.level = RaidLevel::kRaid10;
  c.array.members = 4;
  c.array.stripe_unit_bytes = 64 << 10;
  StatusOr<SimulationOutput> run = RunSimulation(c);
  ASSERT_TRUE(run.ok()) << run.status().message();
  std::set<std::string> sections;
  for (const auto& [name, value] : run->results.sections.items()) {
    sections.insert(name);
    EXPECT_FALSE(value.is_null()) << name;
  }
  EXPECT_EQ(sections, (std::set<std::string>{"background_writes", "cache", "controller", "cpu",
                                             "devices", "host", "row_locks", "simulation",
                                             "volume_layout", "wal"}));
  // The engine's figures beside its parts' own.
  EXPECT_TRUE(run->results.sections["wal"].contains("full_page_images"));
  EXPECT_TRUE(run->results.sections["wal"].contains("commits_per_flush"));
  EXPECT_TRUE(run->results.sections["background_writes"].contains("checkpoints_started"));
  EXPECT_EQ(run->results.sections["devices"].size(), 4u);
}

}  // namespace
}  // namespace pgstorsim::sim
