// TraceRecord: the one I/O request / trace record type shared by the trace writer,
// the replayer and the simulator (live, replayed and simulated I/O speak the same
// vocabulary).
//
// Units: times in nanoseconds since the trace's start; offsets and lengths in bytes
// within the file named by `file` (an id into the trace header's file table).
// Data-page records are 8 KiB-aligned multiples of 8 KiB; WAL records are appends in
// the WAL file; an fsync record has offset 0 and length 0 and means "flush `file`".
// Plain value type; thread safety: none needed.
#ifndef PGSTORSIM_TRACE_TRACE_RECORD_H_
#define PGSTORSIM_TRACE_TRACE_RECORD_H_

#include <cstdint>
#include <string>

namespace pgstorsim {

enum class IoStream : uint8_t { kData = 0, kWal = 1 };
enum class IoOp : uint8_t { kRead = 0, kWrite = 1, kFsync = 2 };

const char* IoStreamName(IoStream s);  // "data", "wal"
const char* IoOpName(IoOp op);         // "read", "write", "fsync"

struct TraceRecord {
  int64_t time_ns = 0;        // Scheduled issue time (open loop); ordering key.
  uint32_t client = 0;        // Client (worker) that issues it.
  uint64_t transaction = 0;   // Global transaction number, 0-based, in commit order.
  uint8_t statement = 0;      // Statement index in the workload (see workload/).
  IoStream stream = IoStream::kData;
  IoOp op = IoOp::kRead;
  uint32_t file = 0;          // Id in TraceHeader::files.
  int64_t offset_bytes = 0;
  int64_t length_bytes = 0;

  bool operator==(const TraceRecord& o) const {
    return time_ns == o.time_ns && client == o.client && transaction == o.transaction &&
           statement == o.statement && stream == o.stream && op == o.op && file == o.file &&
           offset_bytes == o.offset_bytes && length_bytes == o.length_bytes;
  }
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_TRACE_TRACE_RECORD_H_
