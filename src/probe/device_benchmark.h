// `probe --device-benchmark PATH`: short synthetic patterns played by the replayer
// (replay/session.h, replay/pattern.h) with O_DIRECT on PATH: random 8 KiB reads at
// queue depth 1 and 32 (one and 32 workers), sequential 1 MiB reads at depth 1 (for at
// most 2 s), and 8 KiB sequential writes each followed by an fsync (WAL-like). A block device is
// only read (the replayer's target rules never write to a device without --allow-destroy; the write
// pattern is skipped); a path that does not exist becomes a scratch file created, zero-filled and,
// at the end, removed by pgstorsim; an existing regular file not made by pgstorsim is only read
// too. Each pattern yields replay results (kind "replay") whose config.scenario states the io
// workload it ran (workload.type = io, clients, io_depth, io_size, read_fraction, io_access,
// io_fsync_writes, io_direct, file_size, duration; results names and units of
// scenario/scenario_results.h), so `calibrate --measured` fits each as that io workload on the
// scenario's storage. Thread safety: one call at a time; `stop` may be set from a signal handler.
#ifndef PGSTORSIM_PROBE_DEVICE_BENCHMARK_H_
#define PGSTORSIM_PROBE_DEVICE_BENCHMARK_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/results.h"
#include "common/status.h"

namespace pgstorsim {

struct DeviceBenchmarkOptions {
  std::string path;
  int64_t seconds_per_pattern = 5;   // seqread: at most 2.
  int64_t size_bytes = 256LL << 20;  // Region read/written (the scratch file's size).
};

struct DeviceMeasurement {
  std::string name;              // "randread-qd1", "randread-qd32", "seqread", "write-fsync".
  int queue_depth = 1;           // Requests outstanding (one per replayer worker).
  int64_t request_bytes = 8192;  // Bytes per request (workload.io_size).
  Results results;
};

// `print` gets one line per pattern (may be empty).
StatusOr<std::vector<DeviceMeasurement>> RunDeviceBenchmark(
    const DeviceBenchmarkOptions& options, const std::atomic<bool>* stop,
    const std::function<void(const std::string&)>& print);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PROBE_DEVICE_BENCHMARK_H_
