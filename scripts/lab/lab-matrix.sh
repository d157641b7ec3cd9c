#!/usr/bin/env bash
# End-to-end validation matrix in the emulated-storage lab (issue 5, docs/lab.md):
# PostgreSQL on one throttled lab disk inside a memory cgroup; for every throttle
# level x scale x cache state x client count (and repetition), `pgstorsim run`
# measures tps and per-statement latency; then lab-predict.sh runs `pgstorsim
# predict` / `pgstorsim simulate` on the saved scenarios for the same points.
#
#   lab-matrix.sh [TSV]     (default results/validation/lab-matrix.tsv)
#
# Writes four things beside TSV (NAME = TSV without .tsv):
#   NAME-measured.tsv   the measurements, one row per point and repetition
#   NAME-scenarios/     the scenario the lab wrote for each throttle and scale
#   NAME-runs/          every point's `pgstorsim run` results (iIOPS-sSCALE-CACHE-cN-rREP.json.gz)
#   TSV                 measured + predicted (lab-predict.sh; rerun it alone to
#                       recompute the predictions with another binary, no PostgreSQL)
# Every point starts from the same state: a fresh file copy of the freshly loaded
# database (CREATE DATABASE run TEMPLATE sSCALE STRATEGY FILE_COPY), CHECKPOINT and a
# server restart with its memory cgroup emptied, all unthrottled, then the cap, a
# settle pause, and the run (docs/lab.md, "Reproducible points").
#
# Environment (defaults in brackets):
#   PGSTORSIM_BINARY       pgstorsim to use [build-lab/pgstorsim]
#   LAB_MATRIX_PREDICT_ONLY=1  skip measuring: only lab-predict.sh on the saved files
#   LAB_MATRIX_IOPS        throttle levels, IOPS per direction ["150 600"]
#   LAB_MATRIX_MBPS        bandwidth cap per direction, MiB/s [40]
#   LAB_MATRIX_SCALES      pgbench scales ["5 30"]: 75 MB fits in 256M, 450 MB does not
#   LAB_MATRIX_CACHES      ["cold warm"]; LAB_MATRIX_CLIENTS ["1 4"]
#   LAB_MATRIX_REPS        repetitions of the whole matrix [2]
#   LAB_MATRIX_SECONDS     measured seconds per point [30]; warm runs add a 10 s warm-up
#   LAB_MATRIX_SETTLE      seconds between preparing a point and measuring it [5]
#   LAB_MATRIX_MEM / LAB_MATRIX_SHARED_BUFFERS   memory cgroup / shared_buffers [256M / 32M]
#   LAB_MATRIX_PORT        server port [5499]
#   LAB_MATRIX_CALIBRATION a TOML file whose [calibration] section is appended to every
#                          scenario (docs/lab.md: the one calibration allowed) [none]
#   LAB_SCENARIO_DISK      the scenario's disk: throttled (independent read and write
#                          caps) or ssd (one shared queue, the older approximation)
#                          [throttled]
#   PGSTORSIM_LAB_NAME     [pgstorsim-lab-e2e]; images on /dev/shm when present
# Everything is torn down on exit (also on failure or Ctrl-C). Needs root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PGSTORSIM_LAB_NAME=${PGSTORSIM_LAB_NAME:-pgstorsim-lab-e2e}
export LAB_SCENARIO_DISK=${LAB_SCENARIO_DISK:-throttled}
if [[ -z ${PGSTORSIM_LAB_STATE:-} && -d /dev/shm ]]; then
  export PGSTORSIM_LAB_STATE=/dev/shm/$PGSTORSIM_LAB_NAME
fi
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$here/lab-common.sh"

BIN=${PGSTORSIM_BINARY:-$root/build-lab/pgstorsim}
IOPS_LEVELS=${LAB_MATRIX_IOPS:-150 600}
MBPS=${LAB_MATRIX_MBPS:-40}
SCALES=${LAB_MATRIX_SCALES:-5 30}
CACHES=${LAB_MATRIX_CACHES:-cold warm}
CLIENTS=${LAB_MATRIX_CLIENTS:-1 4}
REPS=${LAB_MATRIX_REPS:-2}
SECONDS_PER_POINT=${LAB_MATRIX_SECONDS:-30}
SETTLE_S=${LAB_MATRIX_SETTLE:-5}
MEM=${LAB_MATRIX_MEM:-256M}
SHARED=${LAB_MATRIX_SHARED_BUFFERS:-32M}
PORT=${LAB_MATRIX_PORT:-5499}
CALIBRATION=${LAB_MATRIX_CALIBRATION:-}
TSV=${1:-$root/results/validation/lab-matrix.tsv}
MEASURED=${TSV%.tsv}-measured.tsv
SCENARIOS=${TSV%.tsv}-scenarios
RUNS=${TSV%.tsv}-runs  # Each point's `pgstorsim run` results JSON (lab-predict.sh calibrates on one).
PG_BIN=${PGSTORSIM_PG_BIN:-/usr/lib/postgresql/15/bin}
PREP_IOPS=20000  # The cap while loading and preparing a point: effectively none.
PREP_MBPS=400
WORK=$LAB_STATE-work  # Results JSON of every command, removed on exit.

[[ -x $BIN ]] || lab_die "no pgstorsim binary at $BIN (set PGSTORSIM_BINARY)"
[[ -z $CALIBRATION || -f $CALIBRATION ]] || lab_die "no calibration file $CALIBRATION"
lab_require_uint LAB_MATRIX_REPS "$REPS"
if [[ ${LAB_MATRIX_PREDICT_ONLY:-0} == 1 ]]; then
  exec "$here/lab-predict.sh" "$MEASURED" "$SCENARIOS" "$TSV"
fi
lab_require_root
lab_require_blkio
lab_require_memory_cgroup
lab_require_loop
command -v python3 >/dev/null || lab_skip "python3 needed to read the results JSON"

SAMPLER=""
teardown() {
  if [[ -n $SAMPLER ]]; then kill "$SAMPLER" 2>/dev/null || true; fi
  "$here/lab-pg.sh" down >/dev/null 2>&1 || true
  "$here/lab-disks.sh" down >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap teardown EXIT
trap 'exit 130' INT TERM

psql_at() {  # database sql: one unaligned line per row, fields separated by spaces
  PGOPTIONS="-c client_min_messages=warning" "$PG_BIN/psql" -X -q -At -F ' ' \
    -v ON_ERROR_STOP=1 -h "$LAB_STATE/run" -p "$PORT" \
    -U postgres -d "$1" -c "$2"
}

# Loads the databases unthrottled, one template database per scale; autovacuum off
# (every point runs on a fresh copy: nothing to vacuum, and no vacuum in a window).
setup_lab() {
  "$here/lab-disks.sh" up 1 2G "$PREP_IOPS" "$PREP_MBPS"
  "$here/lab-pg.sh" up --mem "$MEM" --shared-buffers "$SHARED" --port "$PORT"
  # shellcheck source=/dev/null
  . "$LAB_PG_ENV"
  CONNINFO_BASE=${LAB_PG_CONNINFO% dbname=*}
  mkdir -p "$WORK" "$SCENARIOS"
  psql_at postgres "ALTER SYSTEM SET autovacuum = off" >/dev/null
  psql_at postgres "SELECT pg_reload_conf()" >/dev/null
  for scale in $SCALES; do
    psql_at postgres "CREATE DATABASE s$scale" >/dev/null
    lab_say "loading scale $scale"
    "$BIN" init --scale "$scale" --db "$CONNINFO_BASE dbname=s$scale" \
      --out "$WORK/init-s$scale.json" --force --force-out | tail -1
  done
}

# Samples "unix_time reads writes" (requests the lab cgroup got served on the lab
# disk) twice a second to $1 until killed: the measured window is cut out afterwards.
io_sampler() {
  local mm
  # shellcheck source=/dev/null
  mm=$(lab_majmin "$(. "$LAB_DISKS_ENV" && echo "${LAB_DISKS%% *}")")
  while :; do
    awk -v mm="$mm" -v t="$(date +%s.%N)" '$1 == mm && $2 == "Read" {r = $3}
      $1 == mm && $2 == "Write" {w = $3} END {print t, r + 0, w + 0}' \
      "$LAB_BLKIO_CGROUP/blkio.throttle.io_serviced"
    sleep 0.5
  done >"$1"
}

# Saves the scenario for the current throttle and scale as SCENARIOS/lab-IOPS-sSCALE.toml.
save_scenario() {  # iops scale
  local path=$SCENARIOS/lab-$1-s$2.toml
  "$here/lab-pg.sh" scenario "$path" --scale "$2" >/dev/null
  if [[ -n $CALIBRATION ]]; then
    lab_calibration_section "$CALIBRATION" >>"$path"
  fi
}

# The server's cluster-wide counters: commits, WAL syncs and writes, checkpoints.
pg_counters() {  # database
  psql_at "$1" "SELECT (SELECT sum(xact_commit) FROM pg_stat_database), wal_sync, wal_write,
    (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter) FROM pg_stat_wal"
}

# Bytes of the database's files in the page cache (fincore), in MiB.
cached_mib() {  # database
  local oid
  oid=$(psql_at "$1" "SELECT oid FROM pg_database WHERE datname = current_database()")
  find "$LAB_PG_DATA/base/$oid" -type f -print0 | xargs -0 fincore -b -n -o RES 2>/dev/null |
    awk '{s += $1} END {printf "%.1f", s / 1048576}'
}

# The same starting state for every point, prepared unthrottled: database "run" a
# file copy of the loaded sSCALE (same pages, free space, no dead tuples, no history
# rows), no dirty pages, empty shared_buffers and page cache; then the cap.
prepare_point() {  # iops scale
  "$here/lab-disks.sh" set-limits "$PREP_IOPS" "$PREP_MBPS" >/dev/null
  psql_at postgres "DROP DATABASE IF EXISTS run" >/dev/null
  psql_at postgres "CREATE DATABASE run TEMPLATE s$2 STRATEGY FILE_COPY" >/dev/null
  psql_at postgres "CHECKPOINT" >/dev/null
  sync
  "$here/lab-pg.sh" restart >/dev/null
  "$here/lab-disks.sh" set-limits "$1" "$MBPS" >/dev/null
  sleep "$SETTLE_S"
}

# One measured point; appends one row to MEASURED.
run_point() {  # iops scale cache clients rep
  local iops=$1 scale=$2 cache=$3 clients=$4 rep=$5 tag threads=1 warmup=()
  tag="i$iops-s$scale-$cache-c$clients-r$rep"
  ((clients > 1)) && threads=2
  [[ $cache == warm ]] && warmup=(--warmup 10s)
  prepare_point "$iops" "$scale"
  local cached load end_time
  cached=$(cached_mib run)
  pg_counters run >"$WORK/$tag-pg-before.txt"
  io_sampler "$WORK/$tag-io.txt" &
  SAMPLER=$!
  "$here/lab-pg.sh" exec "$BIN" run --db "$CONNINFO_BASE dbname=run" -c "$clients" \
    -j "$threads" -T "${SECONDS_PER_POINT}s" "${warmup[@]}" -M prepared --cache "$cache" \
    --label "lab $tag" --out "$WORK/$tag-run.json" --force >"$WORK/$tag-run.txt" 2>&1 ||
    lab_die "pgstorsim run failed for $tag: $(tail -3 "$WORK/$tag-run.txt")"
  end_time=$(date +%s.%N)
  kill "$SAMPLER"
  wait "$SAMPLER" 2>/dev/null || true
  SAMPLER=""
  load=$(cut -d' ' -f1 /proc/loadavg)
  sleep 1  # Lets the walwriter report its WAL statistics.
  pg_counters run >"$WORK/$tag-pg-after.txt"
  python3 "$here/lab_table.py" measured-row "$iops" "$scale" "$cache" "$clients" "$rep" \
    "$load" "$WORK/$tag-io.txt" "$end_time" "$WORK/$tag-run.json" \
    "$WORK/$tag-pg-before.txt" "$WORK/$tag-pg-after.txt" "$cached" >>"$MEASURED"
  gzip -9 -c "$WORK/$tag-run.json" >"$RUNS/$tag.json.gz"
  tail -1 "$MEASURED"
}

main() {
  local start rep iops scale cache clients
  start=$(date +%s)
  setup_lab
  mkdir -p "$(dirname "$TSV")"
  python3 "$here/lab_table.py" measured-header >"$MEASURED"
  rm -rf "$RUNS"
  mkdir -p "$RUNS"
  for ((rep = 1; rep <= REPS; rep++)); do
    for iops in $IOPS_LEVELS; do
      for scale in $SCALES; do
        if ((rep == 1)); then
          "$here/lab-disks.sh" set-limits "$iops" "$MBPS" >/dev/null
          save_scenario "$iops" "$scale"
        fi
        for cache in $CACHES; do
          for clients in $CLIENTS; do
            run_point "$iops" "$scale" "$cache" "$clients" "$rep"
          done
        done
      done
    done
  done
  lab_say "measured in $(($(date +%s) - start)) s: $MEASURED"
  "$here/lab-predict.sh" "$MEASURED" "$SCENARIOS" "$TSV"
}

main
