// The transaction mix of a run: pgbench's builtin scripts "tpcb-like", "simple-update"
// and "select-only", or "io": no database, jobs issuing file I/O at a pattern (a device
// benchmark: fio, randomio, bonnie++'s seeks; scenario keys workload.io_*). A header of its own so that scenarios can name a workload without
// the workload model (parsing and names live in workload/tpcb.h).
#ifndef PGSTORSIM_WORKLOAD_WORKLOAD_KIND_H_
#define PGSTORSIM_WORKLOAD_WORKLOAD_KIND_H_

namespace pgstorsim {

enum class WorkloadKind { kTpcbLike, kSimpleUpdate, kSelectOnly, kIo };

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_WORKLOAD_KIND_H_
