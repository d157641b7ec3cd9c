#include "model/mirror_sets.h"

#include <cstddef>

namespace pgstorsim {

MirrorSets MirrorSetsOf(const std::vector<int>& leader) {
  MirrorSets sets;
  std::vector<int> set_of_leader(leader.size(), -1);
  sets.set_of_member.resize(leader.size());
  for (std::size_t m = 0; m < leader.size(); ++m) {
    int& set = set_of_leader[leader[m]];
    if (set < 0) {
      set = static_cast<int>(sets.copies.size());
      sets.copies.push_back(0);
    }
    sets.set_of_member[m] = set;
    ++sets.copies[set];
  }
  return sets;
}

MergedStations MergeMirrorSets(const MirrorSets& sets, const MemberDemands& d) {
  if (!sets.AppliesTo(d.demand_ms.size())) return {d.demand_ms, 0};
  MergedStations merged;
  merged.demand_ms.assign(sets.copies.size(), 0);
  for (std::size_t m = 0; m < d.demand_ms.size(); ++m) {
    const int set = sets.set_of_member[m];
    const double c = sets.copies[set];
    merged.demand_ms[set] += d.demand_ms[m] / c;
    merged.delay_ms += d.balanced_ms[m] * (c - 1) / c;
  }
  return merged;
}

std::vector<double> MemberResidences(const MirrorSets& sets, const MvaResult& mva,
                                     const MemberDemands& d) {
  const std::size_t members = d.demand_ms.size();
  if (!sets.AppliesTo(members)) {
    return {mva.residence_ms.begin(), mva.residence_ms.begin() + members};
  }
  std::vector<double> set_ms(sets.copies.size(), 0);
  for (std::size_t m = 0; m < d.demand_ms.size(); ++m)
    set_ms[sets.set_of_member[m]] += d.demand_ms[m];
  std::vector<double> residence_ms(d.demand_ms.size(), 0);
  for (std::size_t m = 0; m < d.demand_ms.size(); ++m) {
    const int set = sets.set_of_member[m];
    const double c = sets.copies[set];
    const double share = set_ms[set] > 0 ? d.demand_ms[m] / set_ms[set] : 0;
    residence_ms[m] = mva.residence_ms[set] * share + d.balanced_ms[m] * (c - 1) / c;
  }
  return residence_ms;
}

}  // namespace pgstorsim
