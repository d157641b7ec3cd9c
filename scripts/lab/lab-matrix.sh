#!/usr/bin/env bash
# End-to-end validation matrix in the emulated-storage lab (issue 5, docs/lab.md):
# PostgreSQL on one throttled lab disk inside a memory cgroup; for every throttle
# level x scale x cache state x client count, `pgstorsim run` measures tps and
# per-statement latency, and `pgstorsim predict` / `pgstorsim simulate` predict the
# same point from the scenario the lab writes (same overrides: clients, scale, cache,
# duration). One row per point goes to a TSV; lab_table.py turns it into Markdown.
#
#   lab-matrix.sh [TSV]     (default results/validation/lab-matrix.tsv)
#
# Environment (defaults in brackets):
#   PGSTORSIM_BINARY       pgstorsim to use [build-lab/pgstorsim]
#   LAB_MATRIX_IOPS        throttle levels, IOPS per direction ["150 600"]
#   LAB_MATRIX_MBPS        bandwidth cap per direction, MiB/s [40]
#   LAB_MATRIX_SCALES      pgbench scales ["5 30"]: 75 MB fits in 256M, 450 MB does not
#   LAB_MATRIX_CACHES      ["cold warm"]; LAB_MATRIX_CLIENTS ["1 4"]
#   LAB_MATRIX_SECONDS     measured seconds per point [30]; warm runs add a 10 s warm-up
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
SECONDS_PER_POINT=${LAB_MATRIX_SECONDS:-30}
MEM=${LAB_MATRIX_MEM:-256M}
SHARED=${LAB_MATRIX_SHARED_BUFFERS:-32M}
PORT=${LAB_MATRIX_PORT:-5499}
CALIBRATION=${LAB_MATRIX_CALIBRATION:-}
TSV=${1:-$root/results/validation/lab-matrix.tsv}
WORK=$LAB_STATE-work  # Results JSON of every command, removed on exit.

[[ -x $BIN ]] || lab_die "no pgstorsim binary at $BIN (set PGSTORSIM_BINARY)"
[[ -z $CALIBRATION || -f $CALIBRATION ]] || lab_die "no calibration file $CALIBRATION"
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

# Loads the databases unthrottled (a high cap), one database per scale.
setup_lab() {
  local mem_bytes
  mem_bytes=$(lab_bytes "$MEM")
  "$here/lab-disks.sh" up 1 2G 20000 400
  "$here/lab-pg.sh" up --mem "$MEM" --shared-buffers "$SHARED" --port "$PORT"
  # shellcheck source=/dev/null
  . "$LAB_PG_ENV"
  CONNINFO_BASE=${LAB_PG_CONNINFO% dbname=*}
  mkdir -p "$WORK"
  for scale in $SCALES; do
    "${PGSTORSIM_PG_BIN:-/usr/lib/postgresql/15/bin}/createdb" -h "$LAB_STATE/run" \
      -p "$PORT" -U postgres "s$scale"
    lab_say "loading scale $scale"
    "$BIN" init --scale "$scale" --db "$CONNINFO_BASE dbname=s$scale" \
      --out "$WORK/init-s$scale.json" | tail -1
  done
  # The simulator keeps 1 GiB of RAM away from the OS cache (sim_config.h
  # os_reserved_bytes); in the cgroup only the servers' private memory is away from it.
  SIM_RAM=$((mem_bytes + (1 << 30) - (16 << 20)))
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

write_scenario() {  # iops scale -> path
  local path=$WORK/lab-$1-s$2.toml
  "$here/lab-pg.sh" scenario "$path" --scale "$2" >/dev/null
  if [[ -n $CALIBRATION ]]; then
    sed -n '/^\[calibration/,$p' "$CALIBRATION" >>"$path"
  fi
  echo "$path"
}

# One point: measure, predict, simulate; appends one TSV row.
run_point() {  # iops scale cache clients
  local iops=$1 scale=$2 cache=$3 clients=$4 tag scenario threads=1 warmup=()
  tag="i$iops-s$scale-$cache-c$clients"
  scenario=$(write_scenario "$iops" "$scale")
  ((clients > 1)) && threads=2
  [[ $cache == warm ]] && warmup=(--warmup 10s)
  [[ $cache == cold ]] && "$here/lab-pg.sh" restart >/dev/null
  local load end_time
  io_sampler "$WORK/$tag-io.txt" &
  SAMPLER=$!
  "$here/lab-pg.sh" exec "$BIN" run --db "$CONNINFO_BASE dbname=s$scale" -c "$clients" \
    -j "$threads" -T "${SECONDS_PER_POINT}s" "${warmup[@]}" -M prepared --cache "$cache" \
    --label "lab $tag" --out "$WORK/$tag-run.json" >"$WORK/$tag-run.txt" 2>&1 ||
    lab_die "pgstorsim run failed for $tag: $(tail -3 "$WORK/$tag-run.txt")"
  end_time=$(date +%s.%N)
  kill "$SAMPLER"
  wait "$SAMPLER" 2>/dev/null || true
  SAMPLER=""
  load=$(cut -d' ' -f1 /proc/loadavg)
  local common=(--scenario "$scenario" --set "workload.clients=$clients"
    --set "workload.scale=$scale" --set "workload.cache=$cache"
    --set "workload.duration=${SECONDS_PER_POINT}s")
  "$BIN" predict "${common[@]}" --out "$WORK/$tag-predict.json" >/dev/null
  "$BIN" simulate "${common[@]}" --set "host.ram=$SIM_RAM" --seed 1 \
    --out "$WORK/$tag-simulate.json" --quiet >/dev/null
  python3 "$here/lab_table.py" row "$iops" "$scale" "$cache" "$clients" "$load" \
    "$WORK/$tag-io.txt" "$end_time" "$WORK/$tag-run.json" "$WORK/$tag-predict.json" \
    "$WORK/$tag-simulate.json" >>"$TSV"
  tail -1 "$TSV"
}

main() {
  setup_lab
  mkdir -p "$(dirname "$TSV")"
  python3 "$here/lab_table.py" header >"$TSV"
  for iops in $IOPS_LEVELS; do
    "$here/lab-disks.sh" set-limits "$iops" "$MBPS"
    for scale in $SCALES; do
      for cache in $CACHES; do
        for clients in $CLIENTS; do run_point "$iops" "$scale" "$cache" "$clients"; done
      done
    done
  done
  lab_say "matrix written to $TSV"
}

main
