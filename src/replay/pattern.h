// Synthetic traces for benchmarks and self-tests (`pgstorsim replay --pattern`),
// in the same TraceHeader/TraceRecord form as generated traces, deterministic for
// options + seed. One data file ("pattern", stream data) of file_bytes.
//   randrw          each op a random block-aligned read (probability read_fraction)
//                   or write; one op per transaction.
//   randread        randrw with read_fraction 1.
//   randwrite       randrw with read_fraction 0.
//   seqread         each client reads its own contiguous region sequentially, from its
//                   start again after its end; one read per transaction (fio rw=read).
//   seqwrite-fsync  each client writes its own contiguous region sequentially; each
//                   transaction is one write followed by an fsync (fio --fdatasync=1).
// Transaction i of the whole trace is scheduled at i * interarrival_ns.
#ifndef PGSTORSIM_REPLAY_PATTERN_H_
#define PGSTORSIM_REPLAY_PATTERN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "trace/trace_io.h"
#include "trace/trace_record.h"

namespace pgstorsim {

struct PatternOptions {
  std::string name = "randrw";
  int64_t file_bytes = 1LL << 30;
  int64_t block_bytes = 8192;
  int clients = 1;
  int64_t ops_per_client = 10000;
  double read_fraction = 0.5;
  int64_t interarrival_ns = 100000;
  uint64_t seed = 1;
};

Status MakePatternTrace(const PatternOptions& options, TraceHeader* header,
                        std::vector<TraceRecord>* records);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_PATTERN_H_
