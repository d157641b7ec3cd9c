// ReplayTrace: the whole replay minus the command line: place the trace's files,
// validate every record, size and prepare every target under the safety rules
// (replay/target.h) -- all before any I/O -- then build the volumes and run the
// replay core (replay/replayer.h).
// Thread safety: reentrant.
#ifndef PGSTORSIM_REPLAY_SESSION_H_
#define PGSTORSIM_REPLAY_SESSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "layout/fs_mapping.h"
#include "layout/raid_layout.h"
#include "replay/replayer.h"
#include "replay/target.h"
#include "trace/trace_io.h"

namespace pgstorsim {

struct ReplayTargets {
  std::string target;                // Single data target; or empty with `members`.
  std::vector<std::string> members;  // Array members (with `array`).
  bool use_array = false;
  ArrayGeometry array;     // level, stripe_unit_bytes, span_members; members
                           // and member_size_bytes are filled in.
  std::string wal_target;  // Empty: WAL after the data on the data volume.
  FsGeometry fs;
  TargetPolicy policy;
  bool direct = true;  // O_DIRECT.
};

struct PreparedReplay {
  std::vector<PreparedTarget> targets;  // Indexed like ReplayOutcome::devices.
  std::vector<std::string> roles;       // "data", "member 2", "wal".
  Placement placement;
  TraceCheck check;
};

StatusOr<ReplayOutcome> ReplayTrace(const TraceHeader& header,
                                    const std::vector<TraceRecord>& records,
                                    const ReplayTargets& targets, const ReplayOptions& options,
                                    PreparedReplay* prepared);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_SESSION_H_
