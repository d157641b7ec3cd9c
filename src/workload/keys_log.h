// Keys log: one text line per transaction run by `pgstorsim run --keys-log FILE` (its
// TxnKeys, workload/tpcb.h, with its measured times), read by the trace generator.
// Format (docs/keys-log.md):
//   pgstorsim keys-log 1
//   <client> <txn_seq> <aid> <tid> <bid> <delta> <start_ns> <end_ns> <committed 0|1>
// Fields are decimal integers separated by one space; times are nanoseconds relative to
// the measured start (end of warm-up); keys a workload does not use are 0; txn_seq
// counts each client's transactions from 0, including warm-up ones (so gaps show warm-up).
// Lines appear in completion order per thread, threads interleaved in blocks. Readers
// skip empty lines and lines starting with #, and accept CRLF line ends. Errors of
// readers name the file and line ("<file>:<line>: ...").
// It depends only on src/common, so the driver (writer) and the trace generator
// (reader) share it without depending on each other. Thread safety:
// KeysLogWriter::Append is safe from several threads; the rest are pure or
// single-threaded.
#ifndef PGSTORSIM_WORKLOAD_KEYS_LOG_H_
#define PGSTORSIM_WORKLOAD_KEYS_LOG_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

inline constexpr const char* kKeysLogHeader = "pgstorsim keys-log 1";

struct KeysLogRecord {
  int client = 0;  // >= 0.
  uint64_t txn_seq = 0;
  int64_t aid = 0;  // Keys are >= 0.
  int64_t tid = 0;
  int64_t bid = 0;
  int64_t delta = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool committed = false;

  bool operator==(const KeysLogRecord& o) const {
    return client == o.client && txn_seq == o.txn_seq && aid == o.aid && tid == o.tid &&
           bid == o.bid && delta == o.delta && start_ns == o.start_ns && end_ns == o.end_ns &&
           committed == o.committed;
  }
};

// One line without the trailing newline.
std::string FormatKeysLogRecord(const KeysLogRecord& r);
// Parses one data line; errors name `line_no` ("line <n>: ..."; the header is line 1).
StatusOr<KeysLogRecord> ParseKeysLogLine(const std::string& line, int64_t line_no);

// Streams a keys log: checks the header, calls `fn` per record in file order and stops at
// the first error (from parsing, or returned by `fn`). Errors name the file and line.
Status ForEachKeysLogRecord(const std::string& path,
                            const std::function<Status(const KeysLogRecord&)>& fn);
// Whole file in memory (records in file order).
StatusOr<std::vector<KeysLogRecord>> ReadKeysLog(const std::string& path);
// The same for the text of a keys log; `name` stands for the file in error messages.
StatusOr<std::vector<KeysLogRecord>> ParseKeysLog(const std::string& text, const std::string& name);

// Writes TemporaryPath(path) (common/file_util.h) and renames it onto `path` when
// closed, so `path` is never a torn or half-written log while the run goes on and an
// existing `path` is replaced only at the end. Destroyed without Close (the command
// failed): closed as partial, so what was logged is kept.
class KeysLogWriter {
 public:
  virtual ~KeysLogWriter() = default;
  // Appends formatted lines (each ending in '\n') as one block.
  virtual Status Append(const std::string& lines) = 0;
  // Flushes, fsyncs and renames onto the path; further Appends fail.
  virtual Status Close() = 0;
  // The same, after the comment line "# partial: <reason>" (readers skip it), for a run
  // that was interrupted or failed.
  virtual Status CloseAsPartial(const std::string& reason) = 0;
};

// Removes stale temporaries of `path`, creates this process's temporary and writes the
// header line.
StatusOr<std::unique_ptr<KeysLogWriter>> OpenKeysLogWriter(const std::string& path);

// The comment line a partial keys log ends with (without the reason).
inline constexpr const char* kKeysLogPartialMark = "# partial: ";

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_KEYS_LOG_H_
