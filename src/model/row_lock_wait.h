// The analytic model's row-lock term (docs/model.md, "Row locks"): pgbench's UPDATE
// tellers and UPDATE branches wait when another in-flight transaction already updated
// the same row and has not committed yet (PostgreSQL releases row locks only after the
// commit record is durable). Pure function; thread-safe.
#ifndef PGSTORSIM_MODEL_ROW_LOCK_WAIT_H_
#define PGSTORSIM_MODEL_ROW_LOCK_WAIT_H_

namespace pgstorsim {

struct RowLockInput {
  int clients = 1;
  int branches = 1;             // Rows of pgbench_branches (= scale); tellers = 10 x that.
  double x_per_ms = 0;          // Transactions per ms (the network's throughput).
  double branch_hold_ms = 0;    // A branch row's hold: INSERT + END (until durable).
  double branch_update_ms = 0;  // UPDATE branches' own time (added to a teller's hold).
};

struct RowLockWait {
  double tellers_ms = 0;   // Mean wait per transaction in UPDATE tellers.
  double branches_ms = 0;  // Mean wait per transaction in UPDATE branches.
};

// Per row: the mean number of OTHER transactions holding it is, by Little's law,
// (N - 1) / N x X x hold / rows (capped at 1); an arriving UPDATE waits with that
// probability for the mean residual of a hold, hold / 2 (a hold is about
// deterministic). A teller's hold is the branch's plus UPDATE branches (its own wait
// included). Returns zeros for one client or no throughput.
RowLockWait MeanRowLockWait(const RowLockInput& in);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_ROW_LOCK_WAIT_H_
