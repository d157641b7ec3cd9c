// Internal to src/layout: what each RAID level is made of, shared by the layout
// (raid_layout.cc) and the level facts and geometry checks (raid_levels.cc).
// Thread safety: pure functions.
#ifndef PGSTORSIM_LAYOUT_RAID_LEVELS_H_
#define PGSTORSIM_LAYOUT_RAID_LEVELS_H_

#include "layout/raid_layout.h"

namespace pgstorsim::raid_levels {

// The level inside each span of a spanned level (raid50 -> raid5, raid60 -> raid6,
// raid100 -> raid10); any other level itself.
RaidLevel SpanLevel(RaidLevel level);
// Parity units per stripe: 1 at RAID 5 (and 50), 2 at RAID 6 (and 60), else 0.
int Parities(RaidLevel level);
// Data units per row of `n` members at a non-spanned level.
int DataUnitsPerRow(RaidLevel level, int n);

}  // namespace pgstorsim::raid_levels

#endif  // PGSTORSIM_LAYOUT_RAID_LEVELS_H_
