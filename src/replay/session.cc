#include "replay/session.h"

#include <sys/stat.h>

#include <algorithm>
#include <memory>

namespace pgstorsim {
namespace {

// Prepares the targets of one volume; appends them to `prepared` and returns the
// smallest size among them.
StatusOr<int64_t> PrepareVolumeTargets(const std::vector<std::string>& paths,
                                       const std::string& role, int64_t member_bytes,
                                       bool needs_write, const ReplayTargets& t,
                                       PreparedReplay* prepared) {
  int64_t smallest = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    auto target = PrepareTarget(paths[i], member_bytes, needs_write, t.policy);
    if (!target.ok()) return target.status();
    smallest = i == 0 ? target->size_bytes : std::min(smallest, target->size_bytes);
    prepared->targets.push_back(*target);
    prepared->roles.push_back(paths.size() > 1 ? role + " member " + std::to_string(i) : role);
  }
  return smallest;
}

// The same file or device named twice would make two members (or data and WAL)
// overwrite each other; refuse it.
Status CheckDistinct(const std::vector<std::string>& paths) {
  for (size_t i = 0; i < paths.size(); ++i) {
    struct stat a;
    const bool a_exists = stat(paths[i].c_str(), &a) == 0;
    for (size_t j = i + 1; j < paths.size(); ++j) {
      struct stat b;
      bool same = paths[i] == paths[j];
      if (!same && a_exists && stat(paths[j].c_str(), &b) == 0) {
        same = S_ISBLK(a.st_mode) ? S_ISBLK(b.st_mode) && a.st_rdev == b.st_rdev
                                  : a.st_dev == b.st_dev && a.st_ino == b.st_ino;
      }
      if (same) {
        return Status::Error("targets " + paths[i] + " and " + paths[j] + " are the same");
      }
    }
  }
  return Status::Ok();
}

std::vector<int> Range(int from, int count) {
  std::vector<int> v;
  for (int i = 0; i < count; ++i) v.push_back(from + i);
  return v;
}

}  // namespace

StatusOr<ReplayOutcome> ReplayTrace(const TraceHeader& header,
                                    const std::vector<TraceRecord>& records, const ReplayTargets& t,
                                    const ReplayOptions& options, PreparedReplay* prepared) {
  *prepared = PreparedReplay();
  const bool separate_wal = !t.wal_target.empty();
  prepared->placement = PlaceFiles(header, separate_wal, t.fs);
  auto check = CheckRecords(records, prepared->placement);
  if (!check.ok()) return check.status();
  prepared->check = *check;

  std::vector<std::string> data_paths =
      t.use_array ? t.members : std::vector<std::string>{t.target};
  if (data_paths.empty() || data_paths[0].empty()) {
    return Status::Error("no data target: give --target, or --array with --members");
  }
  std::vector<std::string> all_paths = data_paths;
  if (separate_wal) all_paths.push_back(t.wal_target);
  Status s = CheckDistinct(all_paths);
  if (s.ok()) s = CheckAllowDestroyNamesTargets(all_paths, t.policy);
  if (!s.ok()) return s;

  ArrayGeometry geometry = t.array;
  geometry.members = static_cast<int>(data_paths.size());
  const ArrayGeometry* array = t.use_array ? &geometry : nullptr;
  auto member_bytes = Volume::MemberBytesFor(array, t.fs, prepared->placement.data_volume_bytes);
  if (!member_bytes.ok()) return member_bytes.status();
  auto smallest = PrepareVolumeTargets(data_paths, "data", *member_bytes,
                                       check->data_volume_writes > 0, t, prepared);
  if (!smallest.ok()) return smallest.status();
  geometry.member_size_bytes = *smallest;
  auto data_volume = Volume::Create(Range(0, geometry.members), array, t.fs);
  if (!data_volume.ok()) return data_volume.status();

  std::unique_ptr<Volume> wal_volume;
  if (separate_wal) {
    auto wal_bytes = Volume::MemberBytesFor(nullptr, t.fs, prepared->placement.wal_volume_bytes);
    if (!wal_bytes.ok()) return wal_bytes.status();
    auto wal_size = PrepareVolumeTargets({t.wal_target}, "wal", *wal_bytes,
                                         check->wal_volume_writes > 0, t, prepared);
    if (!wal_size.ok()) return wal_size.status();
    auto created = Volume::Create({geometry.members}, nullptr, t.fs);
    if (!created.ok()) return created.status();
    wal_volume = std::move(created).value();
  }

  ReplaySetup setup;
  for (const PreparedTarget& p : prepared->targets) {
    setup.targets.push_back({p.path, p.writable, t.direct});
  }
  setup.data_volume = data_volume->get();
  setup.wal_volume = wal_volume.get();
  setup.placement = prepared->placement;
  return RunReplay(records, setup, options);
}

}  // namespace pgstorsim
