#include "model/row_lock_wait.h"

#include <algorithm>

namespace pgstorsim {
namespace {

// Mean wait of an UPDATE on one of `rows` rows, each held `hold_ms` by every
// transaction that updates it.
double WaitMs(const RowLockInput& in, double rows, double hold_ms) {
  const double others = static_cast<double>(in.clients - 1) / in.clients;
  const double held = std::min(1.0, others * in.x_per_ms * hold_ms / rows);
  return held * hold_ms / 2;
}

}  // namespace

RowLockWait MeanRowLockWait(const RowLockInput& in) {
  RowLockWait w;
  if (in.clients < 2 || !(in.x_per_ms > 0) || in.branches < 1) return w;
  w.branches_ms = WaitMs(in, in.branches, in.branch_hold_ms);
  const double teller_hold_ms = in.branch_hold_ms + in.branch_update_ms + w.branches_ms;
  w.tellers_ms = WaitMs(in, 10.0 * in.branches, teller_hold_ms);
  return w;
}

}  // namespace pgstorsim
