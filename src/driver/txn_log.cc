#include "driver/txn_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pgstorsim {

std::string FormatTxnLogLine(const TxnLogRecord& r, const TxnLogOptions& o) {
  char buf[256];
  int n;
  if (r.committed) {
    n = std::snprintf(buf, sizeof buf, "%d %llu %lld %d %lld %lld", r.client,
                      static_cast<unsigned long long>(r.transaction_no),
                      static_cast<long long>(r.latency_us), r.script,
                      static_cast<long long>(r.end_unix_us / 1000000),
                      static_cast<long long>(r.end_unix_us % 1000000));
  } else {
    n = std::snprintf(buf, sizeof buf, "%d %llu failed %d %lld %lld", r.client,
                      static_cast<unsigned long long>(r.transaction_no), r.script,
                      static_cast<long long>(r.end_unix_us / 1000000),
                      static_cast<long long>(r.end_unix_us % 1000000));
  }
  std::string line(buf, n);
  if (o.rate) line += " " + std::to_string(r.lag_us);
  if (o.max_tries != 1) line += " " + std::to_string(r.retries);
  return line;
}

void TxnLogInterval::Add(const TxnLogRecord& r) {
  if (r.retries > 0) {
    ++retried;
    retries += r.retries;
  }
  if (!r.committed) {
    ++(r.serialization_failure ? serialization_failures : deadlock_failures);
    return;
  }
  const double lat = static_cast<double>(r.latency_us);
  const double lag = static_cast<double>(r.lag_us);
  if (transactions == 0 || lat < latency_min) latency_min = lat;
  if (transactions == 0 || lat > latency_max) latency_max = lat;
  if (transactions == 0 || lag < lag_min) lag_min = lag;
  if (transactions == 0 || lag > lag_max) lag_max = lag;
  ++transactions;
  latency_sum += lat;
  latency_sum2 += lat * lat;
  lag_sum += lag;
  lag_sum2 += lag * lag;
}

std::string FormatIntervalLine(const TxnLogInterval& i) {
  char buf[512];
  int n = std::snprintf(
      buf, sizeof buf, "%lld %lld %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f 0 %lld %lld %lld %lld %lld",
      static_cast<long long>(i.start_unix_s), static_cast<long long>(i.transactions),
      i.latency_sum, i.latency_sum2, i.latency_min, i.latency_max, i.lag_sum, i.lag_sum2,
      i.lag_min, i.lag_max, static_cast<long long>(i.retried), static_cast<long long>(i.retries),
      static_cast<long long>(i.serialization_failures + i.deadlock_failures),
      static_cast<long long>(i.serialization_failures),
      static_cast<long long>(i.deadlock_failures));
  return std::string(buf, n);
}

StatusOr<std::unique_ptr<TxnLog>> TxnLog::Open(const TxnLogOptions& options, int thread,
                                               int64_t start_unix_us) {
  std::string path = options.prefix + "." + std::to_string(getpid());
  if (thread > 0) path += "." + std::to_string(thread);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::Error("-l: cannot create " + path + ": " + std::strerror(errno));
  }
  std::FILE* f = fdopen(fd, "w");
  if (f == nullptr) {
    ::close(fd);
    return Status::Error("-l: cannot open " + path + ": " + std::strerror(errno));
  }
  return std::unique_ptr<TxnLog>(new TxnLog(options, path, f, start_unix_us));
}

TxnLog::TxnLog(const TxnLogOptions& options, std::string path, std::FILE* file,
               int64_t start_unix_us)
    : options_(options), path_(std::move(path)), file_(file) {
  interval_.start_unix_s = start_unix_us / 1000000;
}

TxnLog::~TxnLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void TxnLog::FlushIntervalsBefore(int64_t unix_us) {
  const int64_t length = options_.aggregate_interval_s;
  while ((interval_.start_unix_s + length) * 1000000 <= unix_us) {
    std::fprintf(file_, "%s\n", FormatIntervalLine(interval_).c_str());
    TxnLogInterval next;
    next.start_unix_s = interval_.start_unix_s + length;
    interval_ = next;
  }
}

void TxnLog::Record(const TxnLogRecord& r) {
  if (options_.aggregate_interval_s <= 0) {
    std::fprintf(file_, "%s\n", FormatTxnLogLine(r, options_).c_str());
    return;
  }
  FlushIntervalsBefore(r.end_unix_us);
  interval_.Add(r);
}

Status TxnLog::Close() {
  if (file_ == nullptr) return Status::Ok();
  if (options_.aggregate_interval_s > 0) {
    std::fprintf(file_, "%s\n", FormatIntervalLine(interval_).c_str());
  }
  bool ok = std::ferror(file_) == 0;
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (!ok) return Status::Error("-l: writing " + path_ + " failed");
  return Status::Ok();
}

}  // namespace pgstorsim
