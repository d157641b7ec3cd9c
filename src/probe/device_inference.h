// What the device benchmark's timings say about the disk, as scenario facts.
//
// InferDeviceFacts is a pure function: given the scenario probe built from the host's
// flags (its disks and controller keys) and the benchmark's timings, it returns facts
// (origin kMeasured, source naming the measurement and the rule) that override the
// probed ones; ProbeScenarioToml applies later facts over earlier ones.
//
// Rules (docs/scenario-format.md, "Probed disks"):
// - Disk type. An HDD's random read waits at least half a revolution (30000 / rpm ms)
//   plus a track-to-track seek: the least positioning the model's HDD cost function
//   (model/storage_costs.cc) gives for any footprint and seek scale. A QD1 random read
//   mean below that bound is not an HDD: disks.type = "ssd", disks.read_latency = the QD1
//   read mean, disks.write_latency = the write+fsync mean, disks.channels = the QD32 /
//   QD1 reads-per-second ratio rounded, within [1, the QD32 depth]. A scenario already
//   on an SSD takes the same measured keys. An HDD whose reads fit the bound is kept.
// - Write cache. A non-volatile (battery- or flash-backed) cache acknowledges a write
//   without touching the media: a write plus its fsync costs at most two host round
//   trips (write, flush), each no slower than a QD1 read, which also reaches the media;
//   on a rotating disk it also acknowledges in under half a revolution, the average
//   wait of an uncached write. So controller.write_policy = "write-back" (kind raid,
//   battery present and healthy) when write_fsync_mean_ms <= 2 x read_qd1_mean_ms (and,
//   for an HDD, <= half a revolution), else "write-through".
// - Transfer rate. One sequential stream of large direct reads at QD1 (seqread) moves
//   data at the media rate of each member it keeps busy: disks.transfer_rate = the
//   seqread bytes per second / StreamingMembers (1 for a single disk or JBOD; for a
//   striped array, the data members of ArrayGeometryFor's geometry, DataMembers: RAID 0
//   n, RAID 10 n / 2 (one copy of a mirrored pair serves a stream), RAID 5 n - 1,
//   RAID 6 n - 2, RAID 1 1, and no more than the stripe units one request spans).
// A timing of 0 means "not measured": its rule emits nothing.
#ifndef PGSTORSIM_PROBE_DEVICE_INFERENCE_H_
#define PGSTORSIM_PROBE_DEVICE_INFERENCE_H_

#include <string>
#include <vector>

#include "layout/raid_layout.h"
#include "probe/device_benchmark.h"
#include "probe/probe.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct DeviceTimings {
  double read_qd1_mean_ms = 0;         // randread-qd1: mean time of one 8 KiB read.
  double read_qd1_per_s = 0;           // randread-qd1: reads per second.
  double read_deep_per_s = 0;          // randread-qd32: reads per second.
  int read_deep_depth = 0;             // randread-qd32: outstanding reads (32).
  double write_fsync_mean_ms = 0;      // write-fsync: mean time of one 8 KiB write + fsync.
  double seq_read_bytes_per_s = 0;     // seqread: bytes read per second.
  int64_t seq_read_request_bytes = 0;  // seqread: bytes per read (1 MiB).
};

// The timings of RunDeviceBenchmark's measurements (by name); absent patterns stay 0.
DeviceTimings DeviceTimingsOf(const std::vector<DeviceMeasurement>& measured);

// Members a sequential stream of `request_bytes` reads at QD1 keeps busy at once: 1 on
// JBOD; else DataMembers(geometry), at most the stripe units one request spans.
int StreamingMembers(const ArrayGeometry& geometry, int64_t request_bytes);

// The least time an HDD of `disks` can take to position for a random read, in ms:
// half a revolution plus a track-to-track seek.
double HddMinimumReadMs(const DiskConfig& disks);

// Facts for disks.* and controller.* from the timings (rules above). `disk_type_source`
// says where the probed disks.type came from ("/sys/block/vda/queue/rotational = 1"),
// quoted in the reason when the timings overrule it.
std::vector<Fact> InferDeviceFacts(const Scenario& probed, const DeviceTimings& timings,
                                   const std::string& disk_type_source);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PROBE_DEVICE_INFERENCE_H_
