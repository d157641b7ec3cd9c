#!/usr/bin/env bash
# The whole lab validation (issue 5): lab-matrix.sh (live PostgreSQL measured vs
# predict / simulate), lab-array.sh (replayed stripe ratio on an emulated RAID 10),
# then results/validation/lab.md from their TSVs (lab_table.py). Takes about 35 minutes.
#
#   lab-validate.sh [OUT_DIR]    (default results/validation; writes lab.md,
#                                 lab-matrix.tsv, lab-matrix-measured.tsv,
#                                 lab-matrix-scenarios/, lab-array-63s.tsv and
#                                 lab-array-aligned.tsv there)
#
# Environment: PGSTORSIM_BINARY and the LAB_MATRIX_* / LAB_ARRAY_* knobs of the two
# scripts. `LAB_VALIDATE_TABLES_ONLY=1` only rewrites lab.md from existing TSVs;
# `LAB_VALIDATE_PREDICT_ONLY=1` recomputes the matrix's predict / simulate columns
# and the array's from the saved measurements, scenarios and replays with
# PGSTORSIM_BINARY (lab-predict.sh, lab-array.sh with LAB_ARRAY_PREDICT_ONLY=1: seconds,
# no PostgreSQL, no root), then rewrites lab.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/results/validation}
bin=${PGSTORSIM_BINARY:-$root/build-lab/pgstorsim}
mkdir -p "$out"

if [[ ${LAB_VALIDATE_PREDICT_ONLY:-0} == 1 ]]; then
  PGSTORSIM_BINARY=$bin "$here/lab-predict.sh" "$out/lab-matrix-measured.tsv" \
    "$out/lab-matrix-scenarios" "$out/lab-matrix.tsv"
  for tsv in "$out/lab-array-63s.tsv" "$out/lab-array-aligned.tsv"; do
    if grep -q '^DATA_WRITES=' "${tsv%.tsv}-runs/conditions.env" 2>/dev/null; then
      PGSTORSIM_BINARY=$bin LAB_ARRAY_PREDICT_ONLY=1 "$here/lab-array.sh" "$tsv"
    else  # lab-array.sh refuses them: replayed with O_DIRECT data writes.
      echo "lab: $tsv replayed before io.data_writes: kept as computed then (measure again)"
    fi
  done
elif [[ ${LAB_VALIDATE_TABLES_ONLY:-0} != 1 ]]; then
  start=$(date +%s)
  PGSTORSIM_BINARY=$bin "$here/lab-matrix.sh" "$out/lab-matrix.tsv"
  PGSTORSIM_BINARY=$bin LAB_ARRAY_OFFSET=63s "$here/lab-array.sh" "$out/lab-array-63s.tsv"
  PGSTORSIM_BINARY=$bin LAB_ARRAY_OFFSET=0 "$here/lab-array.sh" "$out/lab-array-aligned.tsv"
  echo "lab: matrix and array took $(($(date +%s) - start)) s"
fi

# What lab-predict.sh calibrated (LAB_PREDICT_CALIBRATE: one point, cpu_ms only).
calibration_sentence() {
  local cal=$out/lab-matrix-calibration.toml cpu
  if [[ ! -f $cal ]]; then
    printf '%s' "No calibration: every parameter is the model's default or the lab's own" \
      " measurement (the throttles, the probed device latency, the cgroup's page cache)."
    return
  fi
  cpu=$(sed -n 's/^cpu_ms = \([0-9.]*\).*/\1/p' "$cal" | head -1)
  printf '%s' "One calibration, on one point (LAB_PREDICT_CALIBRATE): \`pgstorsim calibrate" \
    " --fit cpu_ms\` on that point's measured tps gave cpu_ms = $(printf '%.3f' "$cpu") ms" \
    " (lab-matrix-calibration.toml), appended to every scenario; nothing about the disks" \
    " is fitted."
}

{
  cat <<EOF
# End-to-end validation in the emulated-storage lab

Tables written by \`scripts/lab/lab-validate.sh\` at $(date -u +%Y-%m-%dT%H:%M:%SZ) from
the TSVs beside this file (when each was measured: docs/lab.md, "Validation"); the
matrix's predictions by \`${bin#"$root"/}\` (\`$("$bin" version 2>/dev/null | head -1 || true)\`,
built $(date -u -r "$bin" +%Y-%m-%dT%H:%MZ 2>/dev/null || echo "?")), kernel $(uname -r),
$(nproc) cores (machine shared with other builds: each point's load average is in
the table).
How the lab works, and what it throttles, is in docs/lab.md; the reading of these
numbers is in docs/lab.md, "Validation".

## Live PostgreSQL: measured vs predicted

PostgreSQL 15 on one lab disk (loop device, ext4, throttled to IOPS reads/s and IOPS
writes/s, 40 MiB/s each way, no volatile write cache), the server in a 256 MiB memory
cgroup with shared_buffers = 32 MiB; scale 5 (75 MB, fits) and 30 (450 MB, does not).
Every point starts from the same state, prepared unthrottled: a fresh file copy of the
freshly loaded database (\`CREATE DATABASE run TEMPLATE sSCALE STRATEGY FILE_COPY\`),
CHECKPOINT, \`lab-pg.sh restart\` (server restarted, memory cgroup emptied); then the
cap, a 5 s pause, and \`pgstorsim run -M prepared\` (30 s; warm: \`--cache warm\` and a
10 s \`--warmup\`; cold: \`--cache cold\`); autovacuum off (docs/lab.md, "Reproducible
points"). The whole matrix twice (repetitions in the order measured); errors are against the
mean of the repetitions. Predicted: \`pgstorsim predict\` and \`pgstorsim simulate --seed 1\`
on the scenario \`lab-pg.sh\` wrote for the throttle and scale (saved in
lab-matrix-scenarios/), with the point's overrides only (\`workload.clients\`,
\`.scale\`, \`.cache\`, \`.duration\`). The scenario gives both tools the cgroup's page
cache (\`host.os_cache\` = limit - shared_buffers - 24 MiB of other server and kernel
memory) and the lab disk's latency as lab-pg.sh probed it (docs/lab.md, "The scenario
it writes"). $(calibration_sentence) The disk columns are what
the cgroup's \`blkio.throttle.io_serviced\` counted on the lab disk during the measured
window; commits per WAL flush = \`pg_stat_database.xact_commit\` / \`pg_stat_wal.wal_sync\`
deltas around the run (warm-up included).

EOF
  python3 "$here/lab_table.py" markdown "$out/lab-matrix.tsv" "$out/lab-array-63s.tsv" \
    "$out/lab-array-aligned.tsv"
  cat <<'EOF'

The array rows: four lab disks (150 IOPS, 40 MiB/s each way) as the members of
a RAID 10 replayed by `pgstorsim replay --scenario` (64 KiB blocks, 8 KiB fragments), partition offset 63
sectors (the seed's MBR) and 0 (aligned),
WAL on an unthrottled tmpfs file (the lab's battery-backed cache), a warm scale-20
trace with 16 MiB shared_buffers and 16 MiB OS cache (`pgstorsim trace`) that starts
in steady state (`--warmup-transactions 10000`: a clean warm cache writes nothing for
its first ~1100 transactions and ran 2-2.5x faster for the first 3-6 s of each replay;
"second half" is the tps of each run's last 8 s, median of the runs), 4 workers,
15 s per run, the two stripes alternating. `simulate` (120 s) and `predict` ran the matching
scenario (scripts/lab/lab-array.sh writes it: RAID 10 of four throttled disks with the
lab's caps, `disks.type = "throttled"`, hba, 64 KiB blocks, 8 KiB fragments, the same
offset, `wal_on_data_volume = false`). With the 63-sector offset a 64 KiB block on a
32 KiB stripe has two pieces on one mirrored pair that are contiguous on the member;
the replayer merges them into one I/O per member (the cgroup throttle counts it once),
as md or the block layer would. `LAB_ARRAY_PREDICT_ONLY=1 scripts/lab/lab-array.sh TSV`
recomputes the model columns from the saved replays. Reading: docs/lab.md.
EOF
} >"$out/lab.md"
echo "lab: wrote $out/lab.md"
