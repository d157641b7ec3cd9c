-- Consistency checks after `pgstorsim run` (or pgbench) on a database made by
-- `pgstorsim init`. Every TPC-B-like transaction adds the same delta to one account,
-- one teller, one branch and one history row, so after any number of committed
-- transactions (starting from a fresh init, where every balance is 0) all four sums
-- agree. Usage: psql "<conninfo>" -f sql/check-consistency.sql
SELECT (SELECT count(*) FROM pgbench_history)              AS history_rows,
       (SELECT coalesce(sum(delta), 0) FROM pgbench_history) AS history_delta,
       (SELECT sum(abalance) FROM pgbench_accounts)        AS accounts_balance,
       (SELECT sum(tbalance) FROM pgbench_tellers)         AS tellers_balance,
       (SELECT sum(bbalance) FROM pgbench_branches)        AS branches_balance,
       (SELECT coalesce(sum(delta), 0) FROM pgbench_history)
         = (SELECT sum(abalance) FROM pgbench_accounts)
       AND (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(tbalance) FROM pgbench_tellers)
       AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(bbalance) FROM pgbench_branches)
                                                           AS consistent;
