// The io workload's simulation (io_clients.h).
#include "sim/io_clients.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "common/histogram.h"
#include "common/units.h"
#include "layout/fs_mapping.h"
#include "model/io_workload.h"
#include "scenario/scenario_results.h"
#include "sim/controller.h"
#include "sim/results_writer.h"
#include "sim/sim_config.h"
#include "sim/simulator.h"

namespace pgstorsim {
namespace sim {
namespace {

// Blocks beyond this need a larger filesystem block (or io_direct) to simulate.
constexpr int64_t kMaxCachedBlocks = int64_t{1} << 28;
// Consecutive requests completed without simulated time passing before the run is
// refused as not storage-bound.
constexpr int64_t kMaxInstantRequests = 1'000'000;

// An LRU of filesystem blocks: a stamp per block (0 = absent) and a queue of
// (stamp, block) whose stale entries are skipped on eviction.
class BlockLru {
 public:
  BlockLru(int64_t blocks, int64_t capacity)
      : stamps_(static_cast<size_t>(blocks), 0), capacity_(capacity) {}
  bool Contains(int64_t b) const { return stamps_[static_cast<size_t>(b)] != 0; }
  void Touch(int64_t b) {
    if (capacity_ <= 0) return;
    uint32_t& s = stamps_[static_cast<size_t>(b)];
    if (s == 0) {
      while (size_ >= capacity_) Evict();
      ++size_;
    }
    s = ++clock_;
    queue_.emplace_back(s, b);
    if (queue_.size() > 4 * static_cast<size_t>(size_) + 1024) Compact();
  }

 private:
  void Evict() {
    while (true) {
      const auto [s, b] = queue_.front();
      queue_.pop_front();
      if (stamps_[static_cast<size_t>(b)] == s) {
        stamps_[static_cast<size_t>(b)] = 0;
        --size_;
        return;
      }
    }
  }
  void Compact() {
    std::deque<std::pair<uint32_t, int64_t>> live;
    for (const auto& e : queue_) {
      if (stamps_[static_cast<size_t>(e.second)] == e.first) live.push_back(e);
    }
    queue_.swap(live);
  }
  std::vector<uint32_t> stamps_;
  std::deque<std::pair<uint32_t, int64_t>> queue_;
  int64_t capacity_ = 0, size_ = 0;
  uint32_t clock_ = 0;
};

// A reader-writer lock preferring writers (io_clients.h); grants go to `grant`.
class FileLock {
 public:
  // True when granted at once; else queued until a release grants it.
  bool Acquire(uint32_t slot, bool exclusive, int64_t now_ns) {
    const bool free_for = exclusive ? readers_ == 0 && !writer_ && waiting_exclusive_ == 0
                                    : !writer_ && waiting_exclusive_ == 0;
    if (free_for) {
      Take(exclusive, now_ns);
      return true;
    }
    waiters_.push_back({slot, exclusive});
    if (exclusive) ++waiting_exclusive_;
    return false;
  }
  // Releases and appends the slots granted now to *granted.
  void Release(bool exclusive, int64_t now_ns, std::vector<uint32_t>* granted) {
    if (exclusive) {
      writer_ = false;
    } else {
      --readers_;
    }
    if (readers_ > 0 || writer_) return;
    busy_ns_ += now_ns - held_since_ns_;
    if (waiting_exclusive_ > 0) {
      for (auto it = waiters_.begin(); it != waiters_.end(); ++it) {
        if (!it->exclusive) continue;
        granted->push_back(it->slot);
        waiters_.erase(it);
        --waiting_exclusive_;
        Take(true, now_ns);
        return;
      }
    }
    for (const Waiter& w : waiters_) {
      granted->push_back(w.slot);
      Take(false, now_ns);
    }
    waiters_.clear();
  }
  int64_t busy_ns(int64_t now_ns) const {
    return busy_ns_ + (readers_ > 0 || writer_ ? now_ns - held_since_ns_ : 0);
  }

 private:
  struct Waiter {
    uint32_t slot;
    bool exclusive;
  };
  void Take(bool exclusive, int64_t now_ns) {
    if (readers_ == 0 && !writer_) held_since_ns_ = now_ns;
    if (exclusive) {
      writer_ = true;
    } else {
      ++readers_;
    }
  }
  int readers_ = 0;
  bool writer_ = false;
  int waiting_exclusive_ = 0;
  std::deque<Waiter> waiters_;
  int64_t busy_ns_ = 0, held_since_ns_ = 0;
};

enum Stage : uint64_t { kLocked = 1, kReadDone, kRmwDone, kWriteDone, kBackground };
constexpr int32_t kStartEvent = 1;
constexpr int32_t kLockEvent = 2;

class IoClients : public Component, public IoListener {
 public:
  IoClients(const Scenario& s, const SimConfig& config)
      : spec_(IoSpecFor(s, ParamsFromScenario(s))), config_(config), sim_(config.seed) {}

  Status Init() {
    auto controller = Controller::Create(config_.controller, config_.array, config_.disk, sim_);
    if (!controller.ok()) return controller.status();
    controller_ = std::move(controller).value();
    auto fs = FsMapping::Create(config_.fs);
    if (!fs.ok()) return fs.status();
    fs_ = std::make_unique<FsMapping>(*fs);
    spread_ = FileSpread(config_.fs, 0, spec_.file_bytes,
                         RoomForDataBytes(controller_->capacity_bytes(), config_.fs, 0));
    if (config_.fs.partition_offset_bytes + spread_.SpanBytes(spec_.file_bytes) >
        controller_->capacity_bytes()) {
      return Status::Error("workload.file_size: " + std::to_string(spec_.file_bytes) +
                           " bytes do not fit the array (" +
                           std::to_string(controller_->capacity_bytes()) + " bytes)");
    }
    blocks_ = (spec_.file_bytes + spec_.fs_block_bytes - 1) / spec_.fs_block_bytes;
    if (!spec_.direct && blocks_ > kMaxCachedBlocks) {
      return Status::Error(
          "workload.file_size: more than 2^28 filesystem blocks for simulate's "
          "OS cache (use a larger filesystem.block_size or io_direct)");
    }
    const int64_t capacity = spec_.os_cache_bytes / spec_.fs_block_bytes;
    cache_ = std::make_unique<BlockLru>(spec_.direct ? 0 : blocks_, capacity);
    if (!spec_.cold && !spec_.direct) Prewarm(std::min(capacity, blocks_));
    const int n = spec_.in_flight();
    const int64_t region = spec_.file_bytes / n / spec_.io_bytes * spec_.io_bytes;
    for (int i = 0; i < n; ++i) {
      slots_.push_back(Slot{sim_.ForkRandom(1000 + i), i * region, i * region,
                            std::max(region, spec_.io_bytes)});
    }
    return Status::Ok();
  }

  void Run() {
    for (uint32_t i = 0; i < slots_.size(); ++i) sim_.Schedule(0, this, kStartEvent, i);
    sim_.RunUntil(static_cast<int64_t>(spec_.duration_s * 1e9));
  }

  void HandleEvent(const Event& e) override {
    const auto slot = static_cast<uint32_t>(e.payload);
    if (e.kind == kStartEvent) return Start(slot);
    Continue(slot);  // kLockEvent: the lock was granted.
  }

  void OnIoDone(uint64_t token) override {
    const auto slot = static_cast<uint32_t>(token >> 8);
    const auto stage = static_cast<Stage>(token & 0xff);
    if (stage == kBackground) {  // OS write-back done: a throttled writer may go on.
      --background_in_flight_;
      if (!throttled_.empty()) {
        const uint32_t next = throttled_.front();
        throttled_.pop_front();
        Finish(next);
      }
      return;
    }
    Slot& s = slots_[slot];
    if (stage == kReadDone || stage == kRmwDone) {
      for (int64_t b = s.first_block; b < s.end_block; ++b) cache_->Touch(b);
    }
    if (stage == kRmwDone) return WriteBlocks(slot);
    Finish(slot);
  }

  Results BuildResults() const;
  uint64_t events() const { return sim_.events_processed(); }

 private:
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

  // A uniform share of the file's blocks, chosen by selection sampling.
  void Prewarm(int64_t count) {
    Random r = sim_.ForkRandom(7);
    int64_t needed = count;
    for (int64_t b = 0; b < blocks_ && needed > 0; ++b) {
      if (r.UniformInt(0, blocks_ - b - 1) < needed) {
        cache_->Touch(b);
        --needed;
      }
    }
  }

  void Start(uint32_t i) {
    Slot& s = slots_[i];
    s.read = s.rng.UniformDouble() < spec_.read_fraction;
    if (!s.read && spec_.rewrite && s.last_read >= 0) {
      s.offset = s.last_read;
    } else if (spec_.sequential) {
      if (s.cursor + spec_.io_bytes > s.region_start + s.region_bytes) s.cursor = s.region_start;
      s.offset = s.cursor;
      s.cursor += spec_.io_bytes;
    } else {
      s.offset = s.rng.UniformInt(0, spec_.file_bytes / spec_.io_bytes - 1) * spec_.io_bytes;
    }
    if (s.read) s.last_read = s.offset;
    s.start_ns = sim_.now_ns();
    const bool lock = s.read ? spec_.lock.reads_wait : spec_.lock.writes;
    s.locked = lock;
    s.exclusive = !s.read;
    if (lock && !lock_.Acquire(i, s.exclusive, sim_.now_ns())) return;  // Granted later.
    Continue(i);
  }

  // Holding what it needs of the lock: the request's I/O.
  void Continue(uint32_t i) {
    Slot& s = slots_[i];
    s.first_block = s.offset / spec_.fs_block_bytes;
    s.end_block = (s.offset + spec_.io_bytes + spec_.fs_block_bytes - 1) / spec_.fs_block_bytes;
    bool cached = !spec_.direct;
    for (int64_t b = s.first_block; cached && b < s.end_block; ++b) cached = cache_->Contains(b);
    if (s.read) {
      ++(cached ? read_hits_ : read_misses_);
      if (cached) {
        for (int64_t b = s.first_block; b < s.end_block; ++b) cache_->Touch(b);
        return Finish(i);
      }
      if (spec_.sequential && !spec_.direct) {  // The read-ahead window.
        const int64_t window = spec_.readahead_bytes / spec_.fs_block_bytes;
        s.end_block = std::min(blocks_, std::max(s.end_block, s.first_block + window));
      }
      return Submit(i, IoOp::kRead, kReadDone);
    }
    if (!spec_.direct && spec_.partial_block_writes && !cached) {
      return Submit(i, IoOp::kRead, kRmwDone);
    }
    WriteBlocks(i);
  }

  void WriteBlocks(uint32_t i) {
    Slot& s = slots_[i];
    if (!spec_.direct) {
      for (int64_t b = s.first_block; b < s.end_block; ++b) cache_->Touch(b);
    }
    if (!spec_.direct && !spec_.fsync_writes) {
      // OS write-back, not waited for unless the OS has too many writes in flight
      // (its dirty throttling): then the writer waits for one to complete.
      Submit(i, IoOp::kWrite, kBackground);
      if (++background_in_flight_ > config_.background_writes_outstanding) {
        throttled_.push_back(i);
        return;
      }
      return Finish(i);
    }
    if (s.locked && !spec_.direct && !spec_.lock.fsync) ReleaseLock(i);  // fsync outside it.
    Submit(i, IoOp::kWrite, kWriteDone);
  }

  void Submit(uint32_t i, IoOp op, Stage stage) {
    const Slot& s = slots_[i];
    const int64_t offset = s.first_block * spec_.fs_block_bytes;
    const int64_t length = std::min(spec_.file_bytes, s.end_block * spec_.fs_block_bytes) - offset;
    DeviceRequest d;
    if (spec_.direct) {
      d = {config_.fs.partition_offset_bytes + spread_.Offset(s.offset), spec_.io_bytes};
    } else {
      const int64_t placed = spread_.Offset(offset);
      d = op == IoOp::kRead ? fs_->MapRead(placed, length) : fs_->MapWrite(placed, length);
    }
    controller_->Submit({op, d.offset_bytes, d.length_bytes}, this,
                        (static_cast<uint64_t>(i) << 8) | stage);
  }

  void ReleaseLock(uint32_t i) {
    Slot& s = slots_[i];
    if (!s.locked) return;
    s.locked = false;
    granted_.clear();
    lock_.Release(s.exclusive, sim_.now_ns(), &granted_);
    for (uint32_t g : granted_) sim_.Schedule(0, this, kLockEvent, g);
  }

  void Finish(uint32_t i) {
    Slot& s = slots_[i];
    ReleaseLock(i);
    const int64_t latency = sim_.now_ns() - s.start_ns;
    (s.read ? read_latency_ : write_latency_).Record(latency);
    all_latency_.Record(latency);
    // Requests that never wait for the storage would run forever at one instant: the
    // CPU sets their rate, which this simulation has no model of.
    zero_streak_ = latency == 0 ? zero_streak_ + 1 : 0;
    if (zero_streak_ > kMaxInstantRequests) {
      cpu_bound_ = true;
      sim_.Stop();
      return;
    }
    sim_.Schedule(0, this, kStartEvent, i);
  }

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

 public:
  bool cpu_bound() const { return cpu_bound_; }
};

Results IoClients::BuildResults() const {
  Results r = NewResults("simulate");
  const int64_t elapsed_ns = static_cast<int64_t>(spec_.duration_s * 1e9);
  r.config = {{"sim", SimConfigToJson(config_)}};
  r.transactions = all_latency_.count();
  r.duration_s = spec_.duration_s;
  r.tps = static_cast<double>(r.transactions) / r.duration_s;
  r.transaction_latency = all_latency_;
  const std::pair<const char*, const LatencyHistogram*> kinds[] = {{"read", &read_latency_},
                                                                   {"write", &write_latency_}};
  for (const auto& [name, h] : kinds) {
    if (h->count() == 0) continue;
    StatementResult st;
    st.name = name;
    st.latency = *h;
    r.statements.push_back(st);
  }
  ResultsWriter writer(&r, elapsed_ns);
  controller_->Report(writer);  // Its "controller" and "devices" sections.
  r.sections["io"] = {
      {"iops", r.tps},
      {"bytes_per_s", r.tps * static_cast<double>(spec_.io_bytes)},
      {"file_lock_utilization",
       static_cast<double>(lock_.busy_ns(sim_.now_ns())) / static_cast<double>(elapsed_ns)},
      {"os_cache_hit_ratio",
       read_hits_ + read_misses_ > 0
           ? static_cast<double>(read_hits_) / static_cast<double>(read_hits_ + read_misses_)
           : 0.0},
      {"read_requests", read_latency_.count()},
      {"write_requests", write_latency_.count()}};
  r.sections["simulation"] = {{"seed", config_.seed},
                              {"events", sim_.events_processed()},
                              {"simulated_s", NsToSec(sim_.now_ns())}};
  return r;
}

}  // namespace

StatusOr<SimulationOutput> RunIoSimulation(const Scenario& s) {
  if (s.workload.type != WorkloadKind::kIo) return Status::Error("not an io workload");
  auto config = SimConfigFromScenario(s);
  if (!config.ok()) return config.status();
  IoClients clients(s, *config);
  Status init = clients.Init();
  if (!init.ok()) return init;
  clients.Run();
  if (clients.cpu_bound()) {
    return Status::Error(
        "workload.type = io: requests complete without waiting for the storage (OS cache "
        "hits, unsynchronised writes), so the CPU sets their rate, which simulate does not "
        "model; use a larger workload.file_size, io_direct or io_fsync_writes");
  }
  SimulationOutput out;
  out.results = clients.BuildResults();
  out.events = clients.events();
  return out;
}

StatusOr<SimulationOutput> SimulateScenario(const Scenario& s) {
  StatusOr<SimulationOutput> out = Status::Error("");
  if (s.workload.type == WorkloadKind::kIo) {
    out = RunIoSimulation(s);
  } else {
    auto config = SimConfigFromScenario(s);
    if (!config.ok()) return config.status();
    out = RunSimulation(*config);
  }
  if (out.ok()) out.value().results.config.update(ScenarioResultsConfig(s));
  return out;
}

}  // namespace sim
}  // namespace pgstorsim
