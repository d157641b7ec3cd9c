// Mirror sets as multi-server stations in a closed network (internal to src/model).
//
// The c copies of a mirror set serve its reads like one station of c servers: a read
// goes to a copy that is free (the simulator's and md's choice: the copy with fewer
// requests outstanding), while every copy does every write. MVA has load-independent
// stations only, so a set is solved by Seidmann's approximation of a c-server station:
// a queue and a delay. A member's demand has two parts:
//   - balanced: work shared out over the copies, each doing 1 / c of the set's B (reads;
//     a write on the path whose other copies' time the network carries as background
//     load, as the WAL write and a synchronous write are): the queue takes B / c, the
//     delay B (c - 1) / c, so a lone request pays B and each copy queues its share;
//   - the rest: work every copy does in full (destage writes): the queue takes one
//     copy's, once.
// A lone request then pays each part once, and a saturated set serves as its busiest
// member: the queueing is that of one queue instead of c visited in turn.
// Units: ms per transaction (or request). Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_MIRROR_SETS_H_
#define PGSTORSIM_MODEL_MIRROR_SETS_H_

#include <cstddef>
#include <vector>

#include "model/mva.h"

namespace pgstorsim {

// Which members are copies of each other: set index per member (0..sets - 1), and
// copies per set. Members without a mirror are sets of one.
struct MirrorSets {
  std::vector<int> set_of_member;
  std::vector<int> copies;
  bool Trivial() const { return copies.size() == set_of_member.size(); }
  // True when the sets merge stations of a network of `members` members: some set has
  // copies, and the sets describe that many members (empty sets never apply).
  bool AppliesTo(std::size_t members) const {
    return !Trivial() && set_of_member.size() == members;
  }
};

// The sets from each member's leader (the lowest member holding the same data; a
// member without a mirror is its own leader), numbered in the order of their leaders.
MirrorSets MirrorSetsOf(const std::vector<int>& leader);

// Member demands merged into one station per set, and the delay it adds.
struct MergedStations {
  std::vector<double> demand_ms;  // Per set: the mean of its members' demands.
  double delay_ms = 0;            // Sum over sets of balanced (c - 1) / c.
};

// The two parts of each member's demand (above), one entry per member of `sets`.
struct MemberDemands {
  const std::vector<double>& demand_ms;
  const std::vector<double>& balanced_ms;  // <= demand_ms.
};

// Where the sets do not apply to d's members (AppliesTo): the members' own stations
// and no delay.
MergedStations MergeMirrorSets(const MirrorSets& sets, const MemberDemands& d);

// Each member's residence from the merged solve (`mva`'s first sets.copies.size()
// stations): the set's queue residence shared in proportion to the members' demands,
// plus the member's balanced part times (c - 1) / c. Sums to the set's
// residence with its delay. Where the sets do not apply: the members' own stations'.
std::vector<double> MemberResidences(const MirrorSets& sets, const MvaResult& mva,
                                     const MemberDemands& d);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_MIRROR_SETS_H_
