// Helpers of the simulator tests. An error fails the calling test (gtest EXPECT) and
// returns empty results; nothing crashes.
#ifndef PGSTORSIM_TESTS_SIM_SIM_TEST_UTIL_H_
#define PGSTORSIM_TESTS_SIM_SIM_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <utility>

#include "common/results.h"
#include "common/units.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"

namespace pgstorsim::sim {

inline Results MustSimulate(const SimConfig& c) {
  StatusOr<SimulationOutput> out = RunSimulation(c);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? std::move(out).value().results : Results();
}

// A 4-disk throttled RAID 10 (128 KiB stripe, 8 KiB filesystem blocks) without a
// controller cache, where the OS page cache is the only place a dirty page can wait:
// scale 20 (300 MiB: every transaction evicts a dirty page from 16 MiB of shared
// buffers), 4 clients, warm, WAL on an ideal device, `seconds` long.
inline SimConfig ThrottledRaid10(int64_t os_cache_bytes, double read_iops, double write_iops,
                                 int64_t seconds) {
  SimConfig c;
  c.host.scale = 20;
  c.clients = 4;
  SetCacheSizes(16LL << 20, os_cache_bytes, &c);
  c.host.start = pgmodel::CacheStart::kWarm;
  c.duration_ns = seconds * kNsPerSec;
  c.wal_on_data_volume = false;  // The members see data pages only.
  c.array.level = RaidLevel::kRaid10;
  c.array.members = 4;
  c.array.stripe_unit_bytes = 128 << 10;
  c.fs.fs_block_bytes = 8192;
  c.controller.has_cache = false;
  c.controller.write_back = false;
  c.disk.kind = DiskKind::kThrottled;
  c.disk.read_iops = read_iops;
  c.disk.write_iops = write_iops;
  return c;
}

}  // namespace pgstorsim::sim

#endif  // PGSTORSIM_TESTS_SIM_SIM_TEST_UTIL_H_
