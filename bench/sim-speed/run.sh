#!/usr/bin/env bash
# Simulator and model speed, timed on one core, SIM_SPEED_RUNS times (default 3): each
# run's wall and CPU seconds (user + sys) and peak resident memory, then the medians, the
# targets and the ratio of the median CPU to its target. No other tool needed
# (ab.sh compares two binaries round by round: see README.md).
# SIM_SPEED_CASE picks the case:
#   scale2000 (default)  15 simulated minutes of 10-client TPC-B at scale 2000 on the
#                        ServeRAID M5110e-like array (about 0.26 M transactions);
#                        target < 2 s CPU (issue 4);
#   scale200000          the same at scale 200000 (2.6 TB of data on 4 TB disks): memory
#                        must follow the 24 GiB host's caches, not the database
#                        (targets < 3 s CPU, < 400 MB; issue 17);
#   predict              `predict` of scenarios/m5110e.toml with that host at scales 2000, 200000 and
#                        1000000, with PostgreSQL 9.1's WAL settings and with 15's
#                        (max_wal_size 1GB): one process per point (process start
#                        included) and a 40-point client sweep, both held to the
#                        target (< 20 ms and < 50 MB a point).
# Usage: [SIM_SPEED_CASE=...] [SIM_SPEED_RUNS=N] bench/sim-speed/run.sh [path/to/pgstorsim] [extra args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build/pgstorsim}
shift || true
[ -x "$BIN" ] || { echo "sim-speed: no executable at $BIN (build first)" >&2; exit 1; }
CASE=${SIM_SPEED_CASE:-scale2000}
RUNS=${SIM_SPEED_RUNS:-3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
HOST=(--set array.level=raid10 --set array.disks=4 --set array.stripe=32k
      --set filesystem.block_size=64k --set filesystem.fragment_size=64k
      --set filesystem.partition_offset=32256 --set host.ram=24GiB --set host.cpu_cores=12
      --set postgres.shared_buffers=2GiB --set postgres.max_wal_size=96MiB
      --set controller.cache_size=512MiB --set workload.clients=10)
# The harness pins itself to core 0 where the kernel allows (the child inherits it; a
# taskset wrapper would run in the measured process and add its own start-up, about
# 3 ms here); the child's rusage gives CPU seconds to the microsecond (a lone predict
# takes tens of milliseconds: /usr/bin/time prints hundredths) and peak RSS. What the
# harness itself costs the child before exec is printed by the predict case (/bin/true).
timed() {  # prints "user sys maxrss_kb wall_s" for the command's run; its stdout to $OUT/stdout
  if ! python3 -c '
import os, subprocess, sys, time
try:
    os.sched_setaffinity(0, {0})
except (AttributeError, OSError):
    pass
start = time.monotonic()
with open(sys.argv[1], "w") as out:
    child = subprocess.Popen(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
print(f"{usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss} {wall:.2f}")
sys.exit(0 if status == 0 else 1)' "$OUT/stdout" "$@"; then
    echo "sim-speed: failed: $*" >&2
    { "$@" >/dev/null; } 2>&1 | tail -2 >&2
    exit 1
  fi
}
# Medians of the lines "user sys maxrss_kb wall_s" on stdin: "cpu_s rss_mb wall_s".
medians() {
  python3 -c '
import statistics, sys
rows = [[float(x) for x in l.split()] for l in sys.stdin if l.strip()]
cpu = statistics.median(r[0] + r[1] for r in rows)
print(f"{cpu:.3f} {statistics.median(r[2] for r in rows) / 1024:.1f} {statistics.median(r[3] for r in rows):.2f}")'
}
case "$CASE" in
  predict)
    CLIENTS=$(seq -s, 1 40)
    # Two WAL settings: scenarios/m5110e.toml's PostgreSQL 9.1 (checkpoint_segments = 3,
    # its default: a checkpoint every ~2800 transactions), and PostgreSQL 15 on ext4
    # with max_wal_size = 1GB (a cycle of ~30000), which the demands must thin.
    PG91=("${HOST[@]/postgres.max_wal_size=96MiB/postgres.checkpoint_segments=3}")
    PG15=("${HOST[@]/postgres.max_wal_size=96MiB/postgres.max_wal_size=1GB}" --set postgres.version=15
          --set filesystem.type=ext4 --set filesystem.blocks_per_group=0 --set filesystem.max_blocks_per_group=0
          --set filesystem.block_size=4k --set filesystem.fragment_size=4k
          --set filesystem.partition_offset=1MiB --set io.scheduler=mq-deadline)
    : >"$OUT/floor"
    for _ in $(seq "$RUNS"); do timed /bin/true >>"$OUT/floor"; done
    read -r fcpu _ _ < <(medians <"$OUT/floor")
    echo "sim-speed: the harness's floor (/bin/true, median of $RUNS): $fcpu s cpu"
    for wal in pg9.1 pg15; do
      for scale in 2000 200000 1000000; do
        if [ $wal = pg9.1 ]; then SETTINGS=("${PG91[@]}"); else SETTINGS=("${PG15[@]}"); fi
        P=("$BIN" predict --scenario scenarios/m5110e.toml "${SETTINGS[@]}"
           --set workload.scale=$scale --set disks.capacity=40TB)
        : >"$OUT/one" && : >"$OUT/sweep"
        for _ in $(seq "$RUNS"); do
          timed "${P[@]}" "$@" >>"$OUT/one"
          timed "${P[@]}" --sweep "workload.clients=$CLIENTS" "$@" >>"$OUT/sweep"
        done
        read -r cpu rss wall < <(medians <"$OUT/one")
        read -r scpu srss swall < <(medians <"$OUT/sweep")
        awk -v wal=$wal -v s=$scale -v n="$RUNS" -v c=$cpu -v r=$rss -v w=$wall -v sc=$scpu -v sr=$srss 'BEGIN {
          printf "sim-speed: predict %s scale %d, medians of %d runs: one point %.3f s cpu (%.2f s wall;"\
                 " ratio to 0.020 s %.2f), peak RSS %.1f MB; 40-point sweep %.3f s cpu, %.4f s a point"\
                 " (target < 0.020 s: ratio %.2f), peak RSS %.1f MB (target < 50 MB: ratio %.2f)\n",
                 wal, s, n, c, w, c / 0.020, r, sc, sc / 40, sc / 40 / 0.020, sr, sr / 50 }'
      done
    done
    exit 0 ;;
  scale2000) SCALE=(--set workload.scale=2000) ;;
  scale200000) SCALE=(--set workload.scale=200000 --set disks.capacity=4TB) ;;
  *) echo "sim-speed: unknown SIM_SPEED_CASE '$CASE' (scale2000|scale200000|predict)" >&2; exit 1 ;;
esac
TARGET_CPU_S=2; TARGET_RSS_MB=0
[ "$CASE" = scale200000 ] && TARGET_CPU_S=3 && TARGET_RSS_MB=400
: >"$OUT/runs"
for i in $(seq "$RUNS"); do
  rm -f "$OUT/sim.json"
  timed "$BIN" simulate --duration 900s --seed 1 --out "$OUT/sim.json" "${HOST[@]}" \
    "${SCALE[@]}" "$@" >>"$OUT/runs"
  tail -1 "$OUT/runs" | awk -v i=$i '{ printf "sim-speed: run %d: wall %.2f s, cpu %.2f s, peak RSS %.1f MB\n", i, $4, $1 + $2, $3 / 1024 }'
done
read -r cpu rss wall < <(medians <"$OUT/runs")
# From simulate's own summary lines (no JSON parsing).
txn=$(sed -n 's/^simulated transactions: \([0-9]*\) in \([0-9.]*\) s/\1 \2/p' "$OUT/stdout")
tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/stdout")
ops=$(sed -n 's/^simulation: \([0-9]*\) events, \([0-9]*\) disk ops.*/\1 \2/p' "$OUT/stdout")
awk -v c="$CASE" -v cpu=$cpu -v r=$rss -v w=$wall -v t="$tps" -v txn="$txn" -v ops="$ops" \
    -v n="$RUNS" -v tc=$TARGET_CPU_S -v tr=$TARGET_RSS_MB '
BEGIN {
  split(txn, a, " "); split(ops, o, " ")
  printf "sim-speed: %s: simulated %.0f s, %d transactions, tps %.1f\n", c, a[2], a[1], t
  rss_target = tr > 0 ? sprintf(" (target < %d MB: ratio %.2f)", tr, r / tr) : ""
  printf "sim-speed: medians of %d runs: wall %.2f s, cpu %.2f s (target < %d s: ratio %.2f), peak RSS %.1f MB%s\n",
         n, w, cpu, tc, cpu / tc, r, rss_target
  printf "sim-speed: %d events (%.0f/s cpu), %d disk ops (%.0f/s cpu), %.0f transactions/s cpu\n",
         o[1], o[1] / cpu, o[2], o[2] / cpu, a[1] / cpu
}'
