#include "scenario/calibration_keys.h"

namespace pgstorsim {

const std::vector<CalibrationKey>& CalibrationKeys() {
  // {name, model, simulator, fit_lower, fit_upper, meaning}; docs/simulator.md and
  // docs/model.md explain each.
  static const std::vector<CalibrationKey> keys = {
      {"read_seek_scale", true, true, 0.05, 8,
       "x the datasheet seek curve; simulator: the HDD seek curve's scale, and a fitted "
       "scale (not 1) serves in FIFO order (the fit holds the reordering gain)"},
      {"destage_position_ms", true, true, 0.1, 20,
       "positioning per destage command, one per stripe-unit piece per copy, instead of "
       "the one destage_queue_depth gives; simulator: HDD drives serve in FIFO order with "
       "two destages outstanding per member"},
      {"destage_queue_depth", true, true, 1, 64,
       "destage commands a write-back controller keeps queued per HDD, which the drive "
       "reorders: the positioning per destage command follows from the drive's rotation "
       "and seek curve and the distance between the dirty data it destages "
       "(model/destage_cost.h); simulator: that cost, as destage_position_ms"},
      {"cpu_ms", true, true, 0.001, 50,
       "non-I/O time per transaction; simulator: split over the statements in pgbench -r "
       "shares, no separate client round trip"},
      {"commit_ms", true, true, 0.01, 20,
       "a commit into a non-full write-back cache; simulator: the controller's write "
       "acknowledgement (+ its command overhead)"},
      {"cache_fraction", true, true, 0.1, 0.98,
       "share of RAM caching data pages; simulator: the OS page cache = cache_fraction x "
       "RAM (pgmodel/host_scenario.h OsCacheBytes)"},
      {"destage_threshold", true, false, 0.2, 2,
       "destage load at which the write-back cache fills (the model's regime switch)"},
      {"fork_join_weight", true, false, 0, 2,
       "share of the fork-join wait (H_k - 1) x a positioning charged to split reads"},
      {"update_residence_share", true, false, 0, 1,
       "> 0: share of the destage-bound disk residence spent in UPDATE accounts, the rest "
       "in END; 0: UPDATE = reads, END = destage"},
      {"whole_block_reads", true, true, 1e-6, 1e6,
       "1: a block read costs one positioning + the block's transfer, whatever the stripe"},
      {"ssd_read_latency_scale", true, true, 0.05, 20,
       "x disks.read_latency of an SSD (the drive's own read latency against the "
       "scenario's, e.g. a datasheet's); no effect on other disks"},
      {"ssd_write_latency_scale", true, true, 0.05, 20,
       "x disks.write_latency of an SSD (its write acknowledgement against the "
       "scenario's); no effect on other disks"},
      {"cpu_ms_begin", false, true, 0, 0, "CPU per BEGIN statement"},
      {"cpu_ms_update_accounts", false, true, 0, 0, "CPU per UPDATE accounts statement"},
      {"cpu_ms_select_accounts", false, true, 0, 0, "CPU per SELECT accounts statement"},
      {"cpu_ms_update_tellers", false, true, 0, 0, "CPU per UPDATE tellers statement"},
      {"cpu_ms_update_branches", false, true, 0, 0, "CPU per UPDATE branches statement"},
      {"cpu_ms_insert_history", false, true, 0, 0, "CPU per INSERT history statement"},
      {"cpu_ms_end", false, true, 0, 0, "CPU per END (commit) statement"},
      {"client_rtt_ms", false, true, 0, 0, "client round trip per statement"},
      {"os_dirty_expire_s", false, true, 0, 0, "age at which the OS writes a dirty page back",
       true},
      {"os_writes_outstanding", false, true, 0, 0, "OS writes in flight to the device", true},
      {"controller_write_ack_ms", false, true, 0, 0, "controller write acknowledgement"},
      {"controller_read_hit_ms", false, true, 0, 0,
       "controller read-cache hit (predict: a sequential stream's reads of what the "
       "controller read ahead)",
       true},
      {"controller_destage_start", false, true, 0, 0,
       "fraction of the write cache dirty before destaging starts"},
      {"controller_destage_outstanding", false, true, 0, 0,
       "destage commands in flight per member"},
      {"row_locks", false, true, 0, 0, "0: UPDATEs never wait for each other's row locks"},
  };
  return keys;
}

const CalibrationKey* FindCalibrationKey(std::string_view name) {
  for (const CalibrationKey& key : CalibrationKeys()) {
    if (name == key.name) return &key;
  }
  return nullptr;
}

}  // namespace pgstorsim
