#!/usr/bin/env bash
# Simulator speed: 15 simulated minutes of 10-client TPC-B at scale 2000 on the
# ServeRAID M5110e-like array (about 0.4-0.5 M transactions), timed on one core.
# Prints wall and CPU time, simulated transactions, kernel events and disk
# operations per second of CPU, and the ratio to the 2 s target.
# Usage: bench/sim-speed/run.sh [path/to/pgstorsim] [extra simulate args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build/pgstorsim}
shift || true
[ -x "$BIN" ] || { echo "sim-speed: no executable at $BIN (build first)" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ARGS=(simulate --duration 900s --seed 1 --out "$OUT/sim.json"
      --set array.level=raid10 --set array.disks=4 --set array.stripe=32k
      --set filesystem.block_size=64k --set filesystem.fragment_size=64k
      --set filesystem.partition_offset=32256 --set host.ram=24GiB --set host.cpu_cores=12
      --set postgres.shared_buffers=2GiB --set postgres.max_wal_size=96MiB
      --set controller.cache_size=512MiB
      --set workload.scale=2000 --set workload.clients=10 "$@")
# taskset pins to one core when available; /usr/bin/time gives CPU seconds.
PIN=()
command -v taskset >/dev/null && PIN=(taskset -c 0)
START=$(date +%s.%N)
TIMES=$( { /usr/bin/time -f "%U %S" "${PIN[@]}" "$BIN" "${ARGS[@]}" >"$OUT/stdout"; } 2>&1 | tail -1)
END=$(date +%s.%N)
python3 - "$OUT/sim.json" "$START" "$END" $TIMES <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
cpu = float(sys.argv[4]) + float(sys.argv[5])
sim = doc["sections"]["simulation"]
txn = doc["summary"]["transactions"]
print(f"sim-speed: simulated {doc['summary']['duration_s']:.0f} s, {txn} transactions, "
      f"tps {doc['summary']['tps']:.1f}")
print(f"sim-speed: wall {wall:.2f} s, cpu {cpu:.2f} s (target < 2 s: ratio {cpu / 2.0:.2f})")
print(f"sim-speed: {sim['events']} events ({sim['events'] / cpu:,.0f}/s cpu), "
      f"{sim['disk_ops']} disk ops ({sim['disk_ops'] / cpu:,.0f}/s cpu), "
      f"{txn / cpu:,.0f} transactions/s cpu")
PY
