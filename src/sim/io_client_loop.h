// Internal to src/sim: IoClients, the Component that runs the io workload
// (io_clients.h): one slot per issuer (clients x io_depth), each a closed loop of
// requests through the file lock and the OS cache (io_file_state.h) to the controller
// and disks. Set-up and results are in io_clients.cc, the request loop (start, lock,
// cache or device I/O, finish) in io_client_loop.cc. Not for use outside src/sim.
// Units: bytes, ns. Ownership: owns its Simulator, controller and file state; borrows
// nothing after construction. Thread safety: none; one simulation per instance.
#ifndef PGSTORSIM_SIM_IO_CLIENT_LOOP_H_
#define PGSTORSIM_SIM_IO_CLIENT_LOOP_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "common/histogram.h"
#include "common/results.h"
#include "common/status.h"
#include "layout/fs_mapping.h"
#include "model/io_workload.h"
#include "scenario/scenario.h"
#include "sim/controller.h"
#include "sim/io_file_state.h"
#include "sim/sim_config.h"
#include "sim/simulator.h"

namespace pgstorsim {
namespace sim {

class IoClients : public Component, public IoListener {
 public:
  // REQUIRES: a validated scenario with workload.type = io; `config` from it.
  IoClients(const Scenario& s, const SimConfig& config)
      : spec_(IoSpecFor(s, ParamsFromScenario(s))), config_(config), sim_(config.seed) {}

  // Builds the controller, the file's placement, the OS cache (warm: prewarmed) and
  // the slots; an error when the file does not fit the array or the cache.
  Status Init();
  // Starts every slot at time 0 and simulates workload.duration.
  void Run();

  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;

  // The "simulate" Results document of the run (io_clients.h).
  Results BuildResults() const;
  uint64_t events() const { return sim_.events_processed(); }
  // True when the run stopped because requests completed without simulated time.
  bool cpu_bound() const { return cpu_bound_; }

 private:
  // A request's stage; its I/O token is (slot << 8) | the stage it completes.
  enum Stage : uint64_t { kLocked = 1, kReadDone, kRmwDone, kWriteDone, kBackground };
  // Event kinds; the payload is the slot.
  static constexpr int32_t kStartEvent = 1;
  static constexpr int32_t kLockEvent = 2;

  struct Slot {
    Random rng;
    int64_t cursor = 0;        // Sequential: next offset.
    int64_t region_start = 0;  // Sequential: the slot's part of the file.
    int64_t region_bytes = 0;
    bool read = true;
    int64_t offset = 0;
    int64_t last_read = -1;  // workload.io_rewrite: the offset this slot read last.
    int64_t start_ns = 0;
    bool locked = false, exclusive = false;
    int64_t first_block = 0, end_block = 0;  // Blocks the device I/O brings in.
  };

  void Prewarm(int64_t count);
  void StartRequest(uint32_t i);
  void Continue(uint32_t i);
  void WriteBlocks(uint32_t i);
  void Submit(uint32_t i, IoOp op, Stage stage);
  void ReleaseLock(uint32_t i);
  void Finish(uint32_t i);

  const IoSpec spec_;
  const SimConfig config_;
  Simulator sim_;
  std::unique_ptr<Controller> controller_;
  std::unique_ptr<FsMapping> fs_;
  FileSpread spread_{FsGeometry(), 0};  // Where the file's bytes lie (config_.fs).
  std::unique_ptr<BlockLru> cache_;
  int64_t blocks_ = 0;
  FileLock lock_;
  std::vector<uint32_t> granted_;
  std::vector<Slot> slots_;
  LatencyHistogram read_latency_, write_latency_, all_latency_;
  uint64_t read_hits_ = 0, read_misses_ = 0;
  int background_in_flight_ = 0;
  std::deque<uint32_t> throttled_;  // Writers waiting for the OS write-back.
  int64_t zero_streak_ = 0;
  bool cpu_bound_ = false;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_IO_CLIENT_LOOP_H_
