#!/usr/bin/env bash
# Simulator speed: 15 simulated minutes of 10-client TPC-B at scale 2000 on the
# ServeRAID M5110e-like array (about 0.4-0.5 M transactions), timed on one core.
# Prints wall and CPU time, peak resident memory, simulated transactions, kernel
# events and disk operations per second of CPU, and the ratio to the 2 s target.
# SIM_SPEED_CASE picks the case:
#   scale2000 (default)  the bench above;
#   scale200000          the same at scale 200000 (2.6 TB of data on 4 TB disks): memory
#                        must follow the 24 GiB host's caches, not the database
#                        (targets: < 400 MB, < 3 s CPU);
#   predict              `predict` at scales 2000, 200000 and 1000000, one process
#                        each (target: < 20 ms and < 50 MB a point at any scale).
# Usage: [SIM_SPEED_CASE=...] bench/sim-speed/run.sh [path/to/pgstorsim] [extra args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build/pgstorsim}
shift || true
[ -x "$BIN" ] || { echo "sim-speed: no executable at $BIN (build first)" >&2; exit 1; }
CASE=${SIM_SPEED_CASE:-scale2000}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
HOST=(--set array.level=raid10 --set array.disks=4 --set array.stripe=32k
      --set filesystem.block_size=64k --set filesystem.fragment_size=64k
      --set filesystem.partition_offset=32256 --set host.ram=24GiB --set host.cpu_cores=12
      --set postgres.shared_buffers=2GiB --set postgres.max_wal_size=96MiB
      --set controller.cache_size=512MiB --set workload.clients=10)
# taskset pins to one core when available; /usr/bin/time gives CPU seconds and peak RSS.
PIN=()
command -v taskset >/dev/null && PIN=(taskset -c 0)
timed() {  # prints "user sys maxrss_kb wall_s" for the command's run; its stdout to $OUT/stdout
  local start end times
  start=$(date +%s.%N)
  times=$( { /usr/bin/time -f "%U %S %M" "${PIN[@]}" "$@" >"$OUT/stdout"; } 2>&1 | tail -1)
  end=$(date +%s.%N)
  echo "$times $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
}
case "$CASE" in
  predict)
    for scale in 2000 200000 1000000; do
      read -r user sys rss wall < <(timed "$BIN" predict --scenario scenarios/m5110e.toml \
        "${HOST[@]}" --set workload.scale=$scale --set disks.capacity=40TB "$@")
      tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/stdout")
      awk -v s=$scale -v u=$user -v y=$sys -v r=$rss -v w=$wall -v t=$tps 'BEGIN {
        printf "sim-speed: predict scale %d: tps %s, wall %.2f s, cpu %.3f s, peak RSS %.1f MB" \
               " (targets < 0.020 s, < 50 MB)\n", s, t, w, u + y, r / 1024 }'
    done
    exit 0 ;;
  scale2000) SCALE=(--set workload.scale=2000) ;;
  scale200000) SCALE=(--set workload.scale=200000 --set disks.capacity=4TB) ;;
  *) echo "sim-speed: unknown SIM_SPEED_CASE '$CASE' (scale2000|scale200000|predict)" >&2; exit 1 ;;
esac
read -r user sys rss wall < <(timed "$BIN" simulate --duration 900s --seed 1 \
  --out "$OUT/sim.json" "${HOST[@]}" "${SCALE[@]}" "$@")
# From simulate's own summary lines (no JSON parsing).
txn=$(sed -n 's/^simulated transactions: \([0-9]*\) in \([0-9.]*\) s/\1 \2/p' "$OUT/stdout")
tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/stdout")
ops=$(sed -n 's/^simulation: \([0-9]*\) events, \([0-9]*\) disk ops.*/\1 \2/p' "$OUT/stdout")
awk -v c="$CASE" -v u=$user -v y=$sys -v r=$rss -v w=$wall -v t="$tps" -v txn="$txn" -v ops="$ops" '
BEGIN {
  split(txn, a, " "); split(ops, o, " "); cpu = u + y
  printf "sim-speed: %s: simulated %.0f s, %d transactions, tps %.1f\n", c, a[2], a[1], t
  printf "sim-speed: wall %.2f s, cpu %.2f s (target < 2 s: ratio %.2f), peak RSS %.1f MB\n",
         w, cpu, cpu / 2.0, r / 1024
  printf "sim-speed: %d events (%.0f/s cpu), %d disk ops (%.0f/s cpu), %.0f transactions/s cpu\n",
         o[1], o[1] / cpu, o[2], o[2] / cpu, a[1] / cpu
}'
