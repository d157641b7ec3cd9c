// The Linux block throttle's dispatch slice (block/blk-throttle.c, cgroup v1 blkio
// throttle.{read,write}_iops_device): what a throttled device (DiskType::kThrottled,
// e.g. the lab's loop device) does to I/O timing. The kernel counts each direction's
// I/Os over a slice, throtl_slice = HZ / 10 = 100 ms on a rotational queue (loop devices
// included), and lets a bio through while the I/Os dispatched since the slice started
// stay within iops x elapsed time rounded up to whole slices (calculate_io_allowed, an
// integer floor); a bio over that waits for the next slice. So a busy cap dispatches
// ThrottleSliceBudget(iops) I/Os at once at each slice boundary, not one every
// 1 / iops. Used by the simulator's throttled disk (sim/disk.cc) and the analytic
// model's commit grouping under the cap (model/storage_costs.cc).
// Units: ns, I/Os per second. Thread safety: constants and pure functions.
#ifndef PGSTORSIM_DEVICE_THROTTLE_SLICE_H_
#define PGSTORSIM_DEVICE_THROTTLE_SLICE_H_

#include <cstdint>

namespace pgstorsim {

// One throttle slice (DFL_THROTL_SLICE_HD).
inline constexpr int64_t kThrottleSliceNs = 100'000'000;

// I/Os a cap of `iops` (> 0) grants per slice: floor(iops x slice), at least 1.
double ThrottleSliceBudget(double iops);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DEVICE_THROTTLE_SLICE_H_
