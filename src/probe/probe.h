// `pgstorsim probe`: the scenario of a server as it is, each value with where it came
// from. CLI-free: the command (src/cli/commands/probe_command.cc) only wires options.
//
// SQL facts (any server, ProbeSqlFacts): version, shared_buffers, synchronous_commit,
// full_page_writes, max_wal_size (checkpoint_segments before 9.5), checkpoint_timeout,
// checkpoint_completion_target, wal_writer_delay, data_directory, database size and
// the pgbench scale when the tables exist. Host facts (ProbeHostFacts, only when the
// server runs on this machine): RAM and cores (/proc/meminfo, sysconf), the data
// directory's filesystem type and block size (/proc/self/mountinfo, statfs), its
// partition offset, the disk's read_ahead_kb, scheduler, queue depth and rotational
// flag (/sys/dev/block, /sys/block/*/queue), md RAID level, chunk and members
// (/sys/block/md*/md, /proc/mdstat), and whether WAL lives on another device than the
// data. Every Fact is detected (with its source), assumed (the scenario default, said
// so) or unknown; the device benchmark's timings add measured facts
// (device_inference.h).
// Thread safety: pure functions apart from reading the given paths and the connection.
#ifndef PGSTORSIM_PROBE_PROBE_H_
#define PGSTORSIM_PROBE_PROBE_H_

#include <libpq-fe.h>

#include <string>
#include <vector>

#include "common/status.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// kMeasured: from the device benchmark's timings (device_inference.h).
enum class FactOrigin { kDetected, kMeasured, kAssumed, kUnknown };

struct Fact {
  std::string key;    // Scenario key ("postgres.shared_buffers") or a fact's name.
  std::string value;  // In scenario syntax ("134217728", "300s", "on"); "" when unknown.
  FactOrigin origin = FactOrigin::kDetected;
  std::string source;  // "pg_settings", "/proc/meminfo", ...; or why it is assumed/unknown.
};

// Where the host is read from (tests point these at a fake tree).
struct HostPaths {
  std::string proc = "/proc";
  std::string sys = "/sys";
};

// SQL facts; `data_directory` receives SHOW data_directory ("" when not readable).
StatusOr<std::vector<Fact>> ProbeSqlFacts(PGconn* conn, std::string* data_directory);

// True when `data_directory` holds a postmaster.pid naming a live process here.
bool ServerIsLocal(const std::string& data_directory, const HostPaths& paths = HostPaths());

// Host facts for a data directory on this machine.
std::vector<Fact> ProbeHostFacts(const std::string& data_directory,
                                 const HostPaths& paths = HostPaths());

// md RAID from /proc/mdstat text: level ("raid10") and member devices of `md`
// ("md0"); false when `md` is not listed.
bool ParseMdstat(const std::string& mdstat, const std::string& md, std::string* level,
                 std::vector<std::string>* members);

// The scheduler in use from /sys/block/*/queue/scheduler ("mq-deadline [none]" ->
// "none"); the text itself when nothing is bracketed.
std::string SelectedScheduler(const std::string& text);

// The default scenario with every fact that names a scenario key applied, in order (a
// later fact overrides an earlier one); facts whose value does not apply are skipped.
StatusOr<Scenario> ScenarioOfFacts(const std::vector<Fact>& facts);

// The scenario TOML: every fact applied to the default scenario with its origin as the
// key's comment, facts without a scenario key listed in a comment block, keys nobody
// probed marked "assumed (default)"; a later fact for a key overrides an earlier one. Errors: the
// resulting scenario does not validate.
StatusOr<std::string> ProbeScenarioToml(const std::vector<Fact>& facts, const std::string& header);

// What the scenario ProbeScenarioToml writes says of its keys: each scenario key by the
// origin of the fact that set it (the last one), `defaults` the keys no fact set (written
// "assumed (default)"), `notes` the facts listed as comments (no scenario key, or a value
// that does not apply).
struct ProbeKeyCounts {
  int detected = 0, measured = 0, assumed = 0, unknown = 0, defaults = 0, notes = 0;
};
StatusOr<ProbeKeyCounts> CountProbeKeys(const std::vector<Fact>& facts);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PROBE_PROBE_H_
