#include "replay/pattern.h"

#include "common/random.h"

namespace pgstorsim {
namespace {

Status Validate(const PatternOptions& o) {
  if (o.name != "randrw" && o.name != "randread" && o.name != "randwrite" && o.name != "seqread" &&
      o.name != "seqwrite-fsync") {
    return Status::Error(
        "--pattern '" + o.name +
        "' is unknown (expected randrw, randread, randwrite, seqread, seqwrite-fsync)");
  }
  if (o.block_bytes <= 0 || o.block_bytes % 512 != 0) {
    return Status::Error("pattern block size must be a positive multiple of 512");
  }
  if (o.clients < 1 || o.ops_per_client < 1) {
    return Status::Error("pattern needs at least one client and one op per client");
  }
  if (o.file_bytes < o.block_bytes * o.clients) {
    return Status::Error("pattern file is smaller than one block per client");
  }
  return Status::Ok();
}

}  // namespace

Status MakePatternTrace(const PatternOptions& o, TraceHeader* header,
                        std::vector<TraceRecord>* records) {
  Status s = Validate(o);
  if (!s.ok()) return s;
  *header = TraceHeader();
  header->files.push_back({0, "pattern", IoStream::kData, o.file_bytes});
  header->meta = {{"pattern", o.name},    {"block_bytes", o.block_bytes},
                  {"clients", o.clients}, {"ops_per_client", o.ops_per_client},
                  {"seed", o.seed},       {"read_fraction", o.read_fraction}};
  records->clear();
  const double read_fraction =
      o.name == "randread" ? 1.0 : (o.name == "randwrite" ? 0.0 : o.read_fraction);
  const int64_t blocks = o.file_bytes / o.block_bytes;
  const int64_t region_blocks = blocks / o.clients;
  Random root(o.seed);
  std::vector<Random> rngs;
  for (int c = 0; c < o.clients; ++c) rngs.push_back(root.Fork(static_cast<uint64_t>(c)));
  uint64_t txn = 0;
  for (int64_t i = 0; i < o.ops_per_client; ++i) {
    for (int c = 0; c < o.clients; ++c, ++txn) {
      TraceRecord r;
      r.time_ns = static_cast<int64_t>(txn) * o.interarrival_ns;
      r.client = static_cast<uint32_t>(c);
      r.transaction = txn;
      r.length_bytes = o.block_bytes;
      const int64_t next_in_region = (c * region_blocks + i % region_blocks) * o.block_bytes;
      if (o.name == "seqread") {
        r.op = IoOp::kRead;
        r.offset_bytes = next_in_region;
      } else if (o.name == "seqwrite-fsync") {
        r.op = IoOp::kWrite;
        r.offset_bytes = next_in_region;
        records->push_back(r);
        r.op = IoOp::kFsync;
        r.offset_bytes = 0;
        r.length_bytes = 0;
      } else {
        Random& rng = rngs[c];
        r.op = rng.UniformDouble() < read_fraction ? IoOp::kRead : IoOp::kWrite;
        r.offset_bytes = rng.UniformInt(0, blocks - 1) * o.block_bytes;
      }
      records->push_back(r);
    }
  }
  return Status::Ok();
}

}  // namespace pgstorsim
