// The OS page cache's fill (internal to src/model; docs/model.md "The page cache fills
// first"). Where no commit waits behind the data writes (the WAL on its own volume, or
// synchronous_commit = off) a backend's write() returns once the OS holds the page, so
// the clients dirty pages faster than the disks write them until the OS holds its
// dirty limit; only then does balance_dirty_pages hold them to the disks' pace (the
// steady solution). While it fills, the disks write all the time the reads leave them,
// and a read at a member waits for the writes in flight there: a write-back
// controller's destages (kDestagesInFlightPerMember), else the OS's writes in flight
// (pgmodel::OsWritesInFlight) shared over the members that take writes.
// Units: ms, data writes (filesystem blocks) per operation. Thread safety: pure.
#ifndef PGSTORSIM_MODEL_PAGE_CACHE_FILL_H_
#define PGSTORSIM_MODEL_PAGE_CACHE_FILL_H_

#include "model/storage_network.h"

namespace pgstorsim::storage_network {

// The fill point from `pt`, whose demands (pt.d) SolvePointAt built for `load` at
// `reads` per operation: every read waits behind the writes in flight at its members,
// no client waits for a data write; pt.d.write_ms becomes the time the reads leave
// (the disks write in it) and pt.fill_writes_per_ms the writes done in it (those of the
// member that has least room for its share).
Point SolveFillPoint(const Network& net, const OpLoad& load, double reads, Point pt);

// Data writes the OS's dirty set grows by per ms at the fill point `fill` (<= 0: the
// disks keep up, no fill).
double FillGrowthPerMs(const OpLoad& load, const Point& fill);

}  // namespace pgstorsim::storage_network

#endif  // PGSTORSIM_MODEL_PAGE_CACHE_FILL_H_
