// InferDeviceFacts: the device benchmark's timings -> disks.* and controller.* facts
// (device_inference.h).
#include "probe/device_inference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/units.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace {

std::string Ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", ms);
  return buf;
}

// A scenario duration ("81us") from milliseconds, whole microseconds, at least 1 us.
std::string DurationValue(double ms) {
  return std::to_string(std::max<int64_t>(1, std::llround(ms * 1000))) + "us";
}

// Stripe units a request of `bytes` at a multiple of its size spans (rounded up).
int64_t StripeUnitsSpanned(const ArrayGeometry& g, int64_t bytes) {
  return (bytes + g.stripe_unit_bytes - 1) / g.stripe_unit_bytes;
}

Fact Measured(const std::string& key, const std::string& value, const std::string& why) {
  return {key, value, FactOrigin::kMeasured, why};
}

void AddSsdFacts(const DeviceTimings& t, const std::string& type_why, std::vector<Fact>* out) {
  const std::string read = "randread-qd1 mean " + Ms(t.read_qd1_mean_ms);
  out->push_back(Measured("disks.type", "ssd", type_why));
  out->push_back(Measured("disks.read_latency", DurationValue(t.read_qd1_mean_ms), read));
  if (t.write_fsync_mean_ms > 0) {
    out->push_back(Measured(
        "disks.write_latency", DurationValue(t.write_fsync_mean_ms),
        "write-fsync mean " + Ms(t.write_fsync_mean_ms) + " (an 8 KiB write and its fsync)"));
  }
  if (t.read_qd1_per_s > 0 && t.read_deep_per_s > 0 && t.read_deep_depth > 0) {
    const double ratio = t.read_deep_per_s / t.read_qd1_per_s;
    const long channels = std::clamp<long>(std::lround(ratio), 1, t.read_deep_depth);
    char why[200];
    std::snprintf(why, sizeof why,
                  "randread-qd%d %.0f reads/s / randread-qd1 %.0f reads/s = %.2f, rounded, "
                  "within [1, %d]",
                  t.read_deep_depth, t.read_deep_per_s, t.read_qd1_per_s, ratio, t.read_deep_depth);
    out->push_back(Measured("disks.channels", std::to_string(channels), why));
  }
}

void AddWriteCacheFacts(const DeviceTimings& t, bool rotating, double half_rev_ms,
                        std::vector<Fact>* out) {
  if (t.write_fsync_mean_ms <= 0 || t.read_qd1_mean_ms <= 0) return;
  double limit_ms = 2 * t.read_qd1_mean_ms;
  std::string rule =
      "a non-volatile write cache acknowledges a write and its fsync in at most "
      "two host round trips, each no slower than a QD1 read (2 x " +
      Ms(t.read_qd1_mean_ms) + ")";
  if (rotating && half_rev_ms < limit_ms) {
    limit_ms = half_rev_ms;
    rule += " and, on a rotating disk, in under half a revolution (" + Ms(half_rev_ms) + ")";
  }
  const bool cached = t.write_fsync_mean_ms <= limit_ms;
  const std::string why = "write-fsync mean " + Ms(t.write_fsync_mean_ms) +
                          (cached ? " <= " : " > ") + Ms(limit_ms) + ": " + rule;
  if (!cached) {
    out->push_back(Measured("controller.write_policy", "write-through",
                            why + "; so no such cache is between host and media"));
    return;
  }
  const std::string cache = why + "; so one is between host and media";
  out->push_back(Measured("controller.kind", "raid", cache));
  out->push_back(Measured("controller.write_policy", "write-back", cache));
  out->push_back(Measured("controller.battery_present", "on", cache));
  out->push_back(Measured("controller.battery_healthy", "on", cache));
}

// disks.transfer_rate from the seqread bandwidth over the members streaming it.
void AddTransferRateFact(const Scenario& probed, const DeviceTimings& t, std::vector<Fact>* out) {
  if (t.seq_read_bytes_per_s <= 0 || t.seq_read_request_bytes <= 0) return;
  const ArrayGeometry g = ArrayGeometryFor(probed);
  const int members = StreamingMembers(g, t.seq_read_request_bytes);
  const int64_t rate = std::llround(t.seq_read_bytes_per_s / members);
  char why[300];
  const long long request_kib = t.seq_read_request_bytes >> 10;
  int n = std::snprintf(why, sizeof why,
                        "seqread (%lld KiB reads at QD1) %.1f MiB/s / %d member%s streaming in "
                        "parallel",
                        request_kib, t.seq_read_bytes_per_s / (1 << 20), members,
                        members == 1 ? "" : "s");
  if (g.level == RaidLevel::kJbod) {
    std::snprintf(why + n, sizeof why - n, " (%s)",
                  g.members == 1 ? "a single device" : "jbod: one member at a time");
  } else {
    std::snprintf(why + n, sizeof why - n,
                  " (%s of %d: %d data members; a %lld KiB read spans %lld stripe units of "
                  "%lld KiB)",
                  RaidLevelName(g.level), g.members, DataMembers(g), request_kib,
                  static_cast<long long>(StripeUnitsSpanned(g, t.seq_read_request_bytes)),
                  static_cast<long long>(g.stripe_unit_bytes >> 10));
  }
  out->push_back(Measured("disks.transfer_rate", std::to_string(rate), why));
}

}  // namespace

DeviceTimings DeviceTimingsOf(const std::vector<DeviceMeasurement>& measured) {
  DeviceTimings t;
  for (const DeviceMeasurement& m : measured) {
    const double mean_ms = m.results.transaction_latency.mean_ns() / kNsPerMs;
    if (m.name == "randread-qd1") {
      t.read_qd1_mean_ms = mean_ms;
      t.read_qd1_per_s = m.results.tps;
    } else if (m.name == "randread-qd32") {
      t.read_deep_per_s = m.results.tps;
      t.read_deep_depth = m.queue_depth;
    } else if (m.name == "seqread") {
      t.seq_read_bytes_per_s = m.results.tps * static_cast<double>(m.request_bytes);
      t.seq_read_request_bytes = m.request_bytes;
    } else if (m.name == "write-fsync") {
      t.write_fsync_mean_ms = mean_ms;
    }
  }
  return t;
}

int StreamingMembers(const ArrayGeometry& g, int64_t request_bytes) {
  if (g.level == RaidLevel::kJbod) return 1;
  return static_cast<int>(
      std::clamp<int64_t>(StripeUnitsSpanned(g, request_bytes), 1, DataMembers(g)));
}

double HddMinimumReadMs(const DiskConfig& disks) {
  return disks.HalfRevolutionMs() + static_cast<double>(disks.track_to_track_ns) / kNsPerMs;
}

std::vector<Fact> InferDeviceFacts(const Scenario& probed, const DeviceTimings& t,
                                   const std::string& disk_type_source) {
  std::vector<Fact> out;
  const DiskConfig& d = probed.disks;
  const double half_rev_ms = d.type == DiskType::kHdd ? d.HalfRevolutionMs() : 0;
  bool rotating = d.type == DiskType::kHdd;
  if (t.read_qd1_mean_ms > 0 && d.type == DiskType::kHdd) {
    const double bound_ms = HddMinimumReadMs(d);
    char rpm[32];
    std::snprintf(rpm, sizeof rpm, "%.0f", d.rpm);
    const std::string bound = "the least an HDD at " + std::string(rpm) +
                              " rpm can take (half a revolution " + Ms(half_rev_ms) +
                              " + track_to_track " + Ms(bound_ms - half_rev_ms) + " = " +
                              Ms(bound_ms) + ", the model's minimum HDD positioning)";
    if (t.read_qd1_mean_ms < bound_ms) {
      rotating = false;
      AddSsdFacts(t,
                  "randread-qd1 mean " + Ms(t.read_qd1_mean_ms) + " is below " + bound +
                      ", so not an HDD, whatever " +
                      (disk_type_source.empty() ? "the probe assumed" : disk_type_source) + " says",
                  &out);
    } else {
      out.push_back(Measured("disks.type", "hdd",
                             "randread-qd1 mean " + Ms(t.read_qd1_mean_ms) + " is not below " +
                                 bound + "; " +
                                 (disk_type_source.empty() ? "assumed" : disk_type_source)));
    }
  } else if (t.read_qd1_mean_ms > 0 && d.type == DiskType::kSsd) {
    AddSsdFacts(t,
                (disk_type_source.empty() ? "assumed" : disk_type_source) +
                    "; latencies measured by the device benchmark",
                &out);
  }
  AddWriteCacheFacts(t, rotating, half_rev_ms, &out);
  AddTransferRateFact(probed, t, &out);
  return out;
}

}  // namespace pgstorsim
