// Internal to src/model: the io workload on a throttled device (io_throttled.cc), and
// the request kinds and regime every io prediction reports (used by PredictIo,
// io_workload.cc). Not for use outside src/model.
// Units: ms. Thread safety: pure functions; AddRequestKind writes only `*out`.
#ifndef PGSTORSIM_MODEL_IO_THROTTLED_H_
#define PGSTORSIM_MODEL_IO_THROTTLED_H_

#include <functional>
#include <string>

#include "common/status.h"
#include "model/access_geometry.h"
#include "model/io_workload.h"
#include "model/latency_shape.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim::io_throttled {

// Ok when `requests_per_s` is the storage's rate; else (infinite, NaN or past any
// device) the error naming why: no request waits for the storage.
Status StorageSetsTheRate(double requests_per_s);

// The io regime: "file-lock-bound" when requests contend for the lock (more than one in
// flight) and it is held over 90 % of the time, else "destage-bound" with a full
// write-back cache (`cache_full` >= 0.5), else "write-bound" or "read-bound", the kind
// of request the jobs wait longer in.
std::string IoRegime(double lock_utilization, int in_flight, double cache_full, bool writes_longer);

// Adds request kind `name` ("read", "write") with its share of the requests (nothing
// when 0) and its distribution `shape` to `out`: its mean, percentiles, shape, share,
// and its share of the mean request latency.
void AddRequestKind(const char* name, double share, const StatementShape& shape, Prediction* out);

// The io workload `spec` of `s` on a throttled device (disks.type = throttled):
// requests per second, the read and write requests' latencies and percentiles, the
// regime and the caps' utilisations. `g`: one request's blocks; `read_g`: one device
// read's (spec.ReadUnitBytes(): a sequential stream's read-ahead window serves
// io_size / window of the read requests); `miss_after(done)`: the share of reads that
// miss the OS cache once `done` requests have run.
StatusOr<Prediction> PredictThrottledIo(const Scenario& s, const ModelParams& p, const IoSpec& spec,
                                        const AccessGeometry& g, const AccessGeometry& read_g,
                                        const std::function<double(double)>& miss_after);

}  // namespace pgstorsim::io_throttled

#endif  // PGSTORSIM_MODEL_IO_THROTTLED_H_
