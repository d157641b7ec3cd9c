// The simulator's checkpointer (sim/background_writer.h) as PostgreSQL runs it: one
// checkpoint at a time, each ending with its fsync, its writes paced by
// IsCheckpointOnSchedule (progress x checkpoint_completion_target against the elapsed
// share of checkpoint_timeout and of the WAL that triggers one).
#include <gtest/gtest.h>

#include "common/units.h"
#include "sim/sim_config.h"
#include "sim_test_util.h"

namespace pgstorsim::sim {
namespace {

// sim_test_util.h's throttled RAID 10 with a 64 MiB OS cache and fast reads; a
// checkpoint is triggered by `wal_bytes` of WAL or every `timeout_s`.
SimConfig Throttled(double write_iops, int64_t wal_bytes, int64_t timeout_s, double target,
                    int64_t seconds) {
  SimConfig c = ThrottledRaid10(64LL << 20, 5000, write_iops, seconds);
  c.host.checkpoint_wal_bytes = wal_bytes;
  c.host.checkpoint_timeout_ns = timeout_s * kNsPerSec;
  c.host.checkpoint_completion_target = target;
  return c;
}

TEST(CheckpointerTest, ANewCheckpointWaitsForThePreviousOnesFsync) {
  // 2 MiB of WAL makes one due every few hundred transactions; 100 writes a second
  // cannot keep up, so the fsyncs hold the next ones back.
  const Results r = MustSimulate(Throttled(100, 2LL << 20, 300, 0.9, 60));
  const nlohmann::json& bw = r.sections["background_writes"];
  const auto started = bw["checkpoints"].get<uint64_t>();
  const auto completed = bw["checkpoints_completed"].get<uint64_t>();
  EXPECT_EQ(started, r.sections["background_writes"]["checkpoints_started"].get<uint64_t>());
  EXPECT_GE(completed, 1u);
  EXPECT_LE(started - completed, 1u);  // Never two at once.
  const double due = r.sections["wal"]["bytes_inserted"].get<double>() / (2 << 20);
  EXPECT_GT(due, 3.0 * static_cast<double>(started)) << started << " started";
}

TEST(CheckpointerTest, WritesSpreadOverTheTargetShareOfTheTimeout) {
  // Fast writes and no WAL pressure: the timed checkpoints (every 10 s) last about
  // target x 10 s, their writes handed over on the time schedule.
  const int64_t no_wal_pressure = 64LL << 30;
  for (double target : {0.9, 0.5}) {
    const Results r = MustSimulate(Throttled(5000, no_wal_pressure, 10, target, 45));
    const nlohmann::json& bw = r.sections["background_writes"];
    EXPECT_GE(bw["checkpoints_completed"].get<uint64_t>(), 3u);
    EXPECT_NEAR(bw["mean_checkpoint_s"].get<double>(), target * 10, 0.6) << target;
  }
}

TEST(CheckpointerTest, ACheckpointBehindItsWalScheduleWritesAtOnce) {
  // The WAL share runs ahead of the time share: the same checkpoints end much sooner
  // than target x timeout.
  const Results r = MustSimulate(Throttled(5000, 4LL << 20, 10, 0.9, 45));
  const nlohmann::json& bw = r.sections["background_writes"];
  EXPECT_GE(bw["checkpoints_completed"].get<uint64_t>(), 3u);
  EXPECT_LT(bw["mean_checkpoint_s"].get<double>(), 0.5 * 0.9 * 10);
}

}  // namespace
}  // namespace pgstorsim::sim
