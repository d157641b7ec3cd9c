#!/usr/bin/env bash
# pgstorsim replay vs fio on the same file, same pattern, same concurrency.
# Alternates ours and fio, RUNS times each, and prints the median IOPS ratio
# (ours / fio, and ours / fio --thread) and p50/p99 latencies side by side for:
#   randrw    8 KiB random 50/50 read/write, 8 workers, O_DIRECT, psync
#   seqsync   8 KiB sequential writes with fdatasync after each, 1 worker
# Usage: bench/replay-vs-fio/run.sh [pgstorsim-binary]
# Env: BENCH_DIR (default /var/tmp/pgstorsim-bench), SIZE (1g), RUNTIME (10 s), RUNS (3).
set -euo pipefail
BIN=${1:-$(dirname "$0")/../../build/pgstorsim}
DIR=${BENCH_DIR:-/var/tmp/pgstorsim-bench}
SIZE=${SIZE:-1g}
RUNTIME=${RUNTIME:-10}
RUNS=${RUNS:-3}
FILE=$DIR/data
mkdir -p "$DIR"
command -v fio >/dev/null || { echo "run.sh: fio not installed" >&2; exit 1; }
[ -x "$BIN" ] || { echo "run.sh: no pgstorsim binary at $BIN" >&2; exit 1; }

# fio lays the file out (written, not sparse); both tools then use it as is.
fio --name=layout --filename="$FILE" --size="$SIZE" --rw=write --bs=1m --direct=1 \
    --ioengine=psync --output=/dev/null

fio_run() {  # pattern out.json [extra fio options]
  local pattern=$1 out=$2
  shift 2
  local common=(--filename="$FILE" --size="$SIZE" --bs=8k --direct=1 --ioengine=psync
                --time_based --runtime="$RUNTIME" --group_reporting --output-format=json "$@")
  case $pattern in
    randrw) fio --name=randrw --rw=randrw --rwmixread=50 --numjobs=8 "${common[@]}" >"$out" ;;
    seqsync) fio --name=seqsync --rw=write --fdatasync=1 --numjobs=1 "${common[@]}" >"$out" ;;
  esac
}

ours_run() {  # pattern out.txt
  case $1 in
    randrw) "$BIN" replay --pattern randrw --workers 8 --pattern-size "$SIZE" \
              --engine psync --duration "${RUNTIME}s" --target "$FILE" \
              --out "$DIR/ours.json" >"$2" ;;
    seqsync) "$BIN" replay --pattern seqwrite-fsync --workers 1 --pattern-size "$SIZE" \
              --pattern-ops 131072 --engine psync --duration "${RUNTIME}s" \
              --target "$FILE" --out "$DIR/ours.json" >"$2" ;;
  esac
}

for pattern in randrw seqsync; do
  for run in $(seq 1 "$RUNS"); do
    ours_run "$pattern" "$DIR/ours-$pattern-$run.txt"
    fio_run "$pattern" "$DIR/fio-$pattern-$run.json"
    # Our workers are threads of one process; fio's jobs are processes by default.
    # fio --thread is the like-for-like comparison (O_DIRECT from many threads of one
    # process scales worse on Linux than from separate processes).
    fio_run "$pattern" "$DIR/fiothread-$pattern-$run.json" --thread
  done
done

python3 - "$DIR" "$RUNS" <<'PY'
import json, statistics, sys
d, runs = sys.argv[1], int(sys.argv[2])

def ours(pattern, run):
    text = open(f"{d}/ours-{pattern}-{run}.txt").read().splitlines()
    row = {}
    for line in text:
        parts = line.split()
        if line.startswith("data read") or line.startswith("data write"):
            row[parts[1]] = (float(parts[4]), float(parts[6]))  # p50, p99 (ms)
        if line.startswith("tps ="):
            row["iops"] = float(line.split()[2].rstrip(","))
    return row

def fio(pattern, run, kind="fio"):
    job = json.load(open(f"{d}/{kind}-{pattern}-{run}.json"))["jobs"][0]
    row = {"iops": job["read"]["iops"] + job["write"]["iops"]}
    for k, name in (("read", "read"), ("write", "write")):
        pct = job[k]["clat_ns"].get("percentile", {})
        if job[k]["total_ios"]:
            row[name] = (pct["50.000000"] / 1e6, pct["99.000000"] / 1e6)
    return row

def show(pattern, name, o, f):
    oi = statistics.median(x["iops"] for x in o)
    fi = statistics.median(x["iops"] for x in f)
    print(f"{pattern} vs {name}: IOPS ours {oi:.0f}  {name} {fi:.0f}  ratio ours/{name} "
          f"{oi / fi:.3f}  (runs ours {[round(x['iops']) for x in o]}, "
          f"{name} {[round(x['iops']) for x in f]})")
    for k in ("read", "write"):
        if k in o[0] and k in f[0]:
            med = lambda rows, i: statistics.median(x[k][i] for x in rows)
            print(f"  {k:5s} latency ms  p50 ours {med(o, 0):.3f} {name} {med(f, 0):.3f}   "
                  f"p99 ours {med(o, 1):.3f} {name} {med(f, 1):.3f}")

for pattern in ("randrw", "seqsync"):
    o = [ours(pattern, r) for r in range(1, runs + 1)]
    show(pattern, "fio", o, [fio(pattern, r) for r in range(1, runs + 1)])
    show(pattern, "fio-thread", o, [fio(pattern, r, "fiothread") for r in range(1, runs + 1)])
PY
