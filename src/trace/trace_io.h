// Trace files: a versioned header (file table + metadata) followed by TraceRecords,
// in a compact binary form or a readable text form (docs/trace-format.md). The
// reader detects the form from the first line / magic. Writers write to a temporary
// name and rename on Close(), so a trace file is complete or absent.
// Thread safety: one reader or writer per thread.
#ifndef PGSTORSIM_TRACE_TRACE_IO_H_
#define PGSTORSIM_TRACE_TRACE_IO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "trace/trace_record.h"

namespace pgstorsim {

inline constexpr int kTraceVersion = 1;

struct TraceFile {
  uint32_t id = 0;
  std::string name;       // e.g. "pgbench_accounts", "pgbench_accounts_pkey", "wal".
  IoStream stream = IoStream::kData;
  int64_t size_bytes = 0;  // Size the target must provide for this file.
};

struct TraceHeader {
  int version = kTraceVersion;
  std::vector<TraceFile> files;
  // Generation parameters and expectations: scale, seed, clients, transactions,
  // cache sizes and state, statement names, hit ratios, ...
  nlohmann::json meta = nlohmann::json::object();
};

enum class TraceFormat { kBinary, kText };

class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  static StatusOr<std::unique_ptr<TraceWriter>> Open(const std::string& path,
                                                     const TraceHeader& header,
                                                     TraceFormat format);
  virtual Status Append(const TraceRecord& record) = 0;
  // Flushes, fsyncs and renames into place. Must be called; a writer destroyed
  // without Close() removes its temporary file.
  virtual Status Close() = 0;
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  static StatusOr<std::unique_ptr<TraceReader>> Open(const std::string& path);
  virtual const TraceHeader& header() const = 0;
  // Reads the next record into *record. Returns false at the end; errors name the
  // file and record number (binary) or line (text).
  virtual StatusOr<bool> Next(TraceRecord* record) = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_TRACE_TRACE_IO_H_
