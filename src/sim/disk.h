// Simulated disks: one queue per member drive, fed by the controller.
//
// Three kinds: "hdd" (seek time on a sqrt curve through track-to-track and average
// seek, rotational latency (seeded uniform for FIFO far seeks; from the sector's angle
// on the same track and under SATF, which serves the request reachable first among
// the drive's queue_depth window), transfer at the sustained rate, optional drive
// write cache), "ssd" (fixed
// read/write latency + transfer of whole flash pages at the per-channel rate
// `sustained_bytes_per_s`, `channels` requests in parallel, one per channel, a write that does not
// cover whole pages pays a read first) and "exponential" (exponentially distributed service time
// with a given mean: the textbook server, used to check the kernel against queueing formulas) and
// "throttled" (a rate-limited device, e.g. a loop device under cgroup blkio: reads and writes pass
// two independent limiters, each I/O dispatched no sooner than its direction's previous one plus
// max(1 / iops, bytes / bandwidth), then served in the device latency; an I/O below
// the rate is not delayed). Units: bytes, ns.
// Thread safety: none (belongs to one Simulator).
#ifndef PGSTORSIM_SIM_DISK_H_
#define PGSTORSIM_SIM_DISK_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/histogram.h"
#include "common/status.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"
#include "trace/trace_record.h"

namespace pgstorsim {
namespace sim {

enum class DiskKind { kHdd, kSsd, kExponential, kThrottled };
enum class DiskScheduler { kFifo, kSatf };

struct SimDiskConfig {
  DiskKind kind = DiskKind::kHdd;
  int64_t capacity_bytes = 300LL * 1000 * 1000 * 1000;
  // HDD mechanics (defaults: 15K rpm SAS, e.g. Hitachi HUS156030VLS600).
  double rpm = 15000;
  int64_t avg_seek_ns = 3'400'000;        // Reads.
  int64_t avg_write_seek_ns = 3'900'000;  // Writes (settle longer).
  int64_t track_to_track_ns = 200'000;
  // Multiplies the seek curve above track-to-track (calibration key read_seek_scale:
  // the effective seek the model fitted, short-stroking and reordering included).
  double seek_scale = 1.0;
  double sustained_bytes_per_s = 150e6;
  int64_t command_overhead_ns = DiskConfig::kHddCommandOverheadNs;
  DiskScheduler scheduler = DiskScheduler::kFifo;
  int queue_depth = 1;       // Requests the drive reorders among (NCQ/TCQ).
  bool write_cache = false;  // Drive write cache (WCE).
  int64_t write_cache_bytes = 16 << 20;
  double interface_bytes_per_s = 600e6;  // Transfer into the drive's cache.
  // SSD.
  int64_t ssd_read_ns = 90'000;
  int64_t ssd_write_ns = 30'000;
  int ssd_channels = 8;
  int64_t ssd_page_bytes = 8192;  // Flash page: smaller or unaligned writes read first.
  // Throttled: caps per direction (bandwidth 0 = none); ssd_read_ns / ssd_write_ns
  // are the device latency below the cap.
  double read_iops = 150;
  double write_iops = 150;
  double read_bytes_per_s = 0;
  double write_bytes_per_s = 0;
  // Exponential server.
  int64_t mean_service_ns = 5'000'000;
};

StatusOr<DiskKind> ParseDiskKind(const std::string& text);  // hdd|ssd|exponential|throttled
StatusOr<DiskScheduler> ParseDiskScheduler(const std::string& text);  // fifo|satf
// Checks ranges; the message names the offending field with `prefix` (e.g. "disk.rpm").
Status ValidateDiskConfig(const SimDiskConfig& config, const std::string& prefix);

// One operation on one member, in member byte offsets.
struct DiskOp {
  IoOp op = IoOp::kRead;
  int64_t offset_bytes = 0;
  int64_t length_bytes = 0;
  // >= 0: the positioning (seek + rotation) this command costs, fixed by the
  // submitter (a calibrated destage cost), instead of the HDD mechanics.
  int64_t position_ns = -1;
  // With position_ns >= 0: the submitter would have merged this write with a
  // contiguous predecessor (a cache line continuing its stripe unit), so it costs no
  // positioning when it starts where the head is. Reads that continue always stream.
  bool continues_command = false;
};

// Receives completions. `token` is whatever the submitter passed to Submit().
class IoListener {
 public:
  virtual ~IoListener() = default;
  virtual void OnIoDone(uint64_t token) = 0;
};

struct DiskStats {
  uint64_t reads = 0;
  uint64_t writes = 0;
  int64_t read_bytes = 0;
  int64_t written_bytes = 0;
  int64_t busy_ns = 0;  // Mechanism (or channel) busy time; utilisation = busy / elapsed.
  int64_t read_busy_ns = 0, write_busy_ns = 0;  // Of busy_ns, serving reads and writes.
  // Reads and writes have their own capacity (a throttled device's two caps): the
  // utilisation is the busier direction's, not the sum.
  bool separate_directions = false;
  uint64_t write_cache_absorbed = 0;
  LatencyHistogram response;  // Submit to completion, as the submitter sees it.
};

class Disk : public Component {
 public:
  // Queues `op`; listener->OnIoDone(token) runs when it completes (never inside
  // Submit). `listener` must outlive the request.
  virtual void Submit(const DiskOp& op, IoListener* listener, uint64_t token) = 0;
  // Requests queued or in service (for mirror read balancing).
  virtual int outstanding() const = 0;
  virtual const DiskStats& stats() const = 0;
  virtual const std::string& name() const = 0;
  // {"name","reads","writes","utilization","read_utilization","write_utilization",
  //  "mean_response_ms",...}.
  nlohmann::json ToJson(int64_t elapsed_ns) const;
};

// REQUIRES: ValidateDiskConfig(config).ok(). `stream_id` selects this disk's random
// stream (rotational latency, exponential service) from the simulator's seed.
std::unique_ptr<Disk> CreateDisk(const SimDiskConfig& config, Simulator& sim, uint64_t stream_id,
                                 std::string name);

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_DISK_H_
