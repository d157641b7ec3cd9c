#include "sim/wal.h"

#include <algorithm>

#include "common/units.h"
#include "sim/results_writer.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace sim {
namespace {

enum WalEvent : int32_t { kIdealFlushDone = 1, kWriterTick = 2 };
enum WalToken : uint64_t { kWriteToken = 0, kFsyncToken = 1 };

}  // namespace

WalLog::WalLog(Simulator& sim, Controller* controller, const VolumeMap* map, WalWaiter* waiter,
               int64_t writer_delay_ns, int64_t ideal_flush_ns)
    : sim_(sim),
      controller_(controller),
      map_(map),
      waiter_(waiter),
      writer_delay_ns_(writer_delay_ns),
      ideal_flush_ns_(ideal_flush_ns) {}

void WalLog::Start() {
  if (writer_delay_ns_ > 0) sim_.Schedule(writer_delay_ns_, this, kWriterTick);
}

void WalLog::Inserted(int64_t lsn) { insert_lsn_ = std::max(insert_lsn_, lsn); }

bool WalLog::WaitFlushed(int64_t lsn, uint32_t waiter) {
  if (lsn <= flushed_lsn_) return true;
  waiting_.push_back({lsn, waiter});
  if (!flushing_) StartFlush();
  return false;
}

void WalLog::FlushAll() {
  if (!flushing_ && insert_lsn_ > flushed_lsn_) StartFlush();
}

void WalLog::StartFlush() {
  flushing_ = true;
  flush_target_ = insert_lsn_;
  ++flushes_;
  if (controller_ == nullptr) {
    sim_.Schedule(ideal_flush_ns_, this, kIdealFlushDone);
    return;
  }
  // Pages [first, last] of the circular region; a wrap splits the write in two.
  const int64_t first_page = flushed_lsn_ / kPageBytes;
  const int64_t end_page = (flush_target_ + kPageBytes - 1) / kPageBytes;
  const int64_t region_pages = map_->wal_bytes() / kPageBytes;
  int64_t pages = std::min(end_page - first_page, region_pages);
  int64_t start = first_page % region_pages;
  writes_outstanding_ = 0;
  while (pages > 0) {
    const int64_t run = std::min(pages, region_pages - start);
    TraceRecord record;
    record.time_ns = sim_.now_ns();
    record.stream = IoStream::kWal;
    record.op = IoOp::kWrite;
    record.file = kWalFileId;
    record.offset_bytes = start * kPageBytes;
    record.length_bytes = run * kPageBytes;
    controller_->Submit(map_->Map(record), this, kWriteToken);
    bytes_written_ += run * kPageBytes;
    ++writes_outstanding_;
    pages -= run;
    start = 0;
  }
}

void WalLog::OnIoDone(uint64_t token) {
  if (token == kWriteToken) {
    if (--writes_outstanding_ == 0) controller_->Submit({IoOp::kFsync, 0, 0}, this, kFsyncToken);
    return;
  }
  FlushDone();
}

void WalLog::HandleEvent(const Event& e) {
  if (e.kind == kIdealFlushDone) return FlushDone();
  FlushAll();  // kWriterTick.
  sim_.Schedule(writer_delay_ns_, this, kWriterTick);
}

void WalLog::FlushDone() {
  flushed_lsn_ = flush_target_;
  flushing_ = false;
  // Waiters are FIFO in LSN order (LSNs only grow).
  while (!waiting_.empty() && waiting_.front().lsn <= flushed_lsn_) {
    const uint32_t w = waiting_.front().waiter;
    waiting_.pop_front();
    ++commits_flushed_;
    waiter_->OnWalFlushed(w);
  }
  if (!waiting_.empty() && !flushing_) StartFlush();
}

void WalLog::Report(ResultsWriter& out) const {
  nlohmann::json& wal = out.Section("wal");
  wal["bytes_inserted"] = insert_lsn_;
  wal["bytes_written"] = bytes_written_;
  wal["flushes"] = flushes_;
  wal["commits_per_flush"] = flushes_ ? static_cast<double>(commits_flushed_) / flushes_ : 0.0;
  wal["ideal_device"] = controller_ == nullptr;
}

}  // namespace sim
}  // namespace pgstorsim
