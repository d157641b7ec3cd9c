#!/usr/bin/env bash
# pgstorsim replay vs fio on the same file, same pattern, same concurrency.
# For each pattern, RUNS rounds; each round runs ours, fio --thread and fio (processes)
# back to back, rotating which goes first, so load drift hits all three alike. Prints
# the median of the per-round IOPS ratios (ours / fio --thread is the like-for-like
# one, see below), the medians of IOPS and p50/p95/p99 latencies side by side, and
# the load average before and after:
#   randrw    8 KiB random 50/50 read/write, 8 workers, O_DIRECT, psync
#   seqsync   8 KiB sequential writes with fdatasync after each, 1 worker
# Both tools: same file (laid out by fio, written, not sparse), whole file as the
# range, O_DIRECT, pread/pwrite (fio psync = ours psync), no ramp, same runtime,
# time based; fio's write latency excludes the fdatasync, so does ours ("data write").
# Why fio --thread: fio's job *processes* each call setsid(), so with the kernel's
# sched_autogroup_enabled=1 each job is its own autogroup and, on a busy machine,
# 8 jobs get 8 CPU shares while 8 threads of one process (ours, fio --thread, and
# PostgreSQL's backends, which share the postmaster's session) get one. On an idle
# machine the two agree.
# SCHED=fifo (the default when chrt can set it, i.e. as root) runs every tool under
# `chrt -f 1`: then neither the other users of a shared machine nor autogroups decide
# when a worker whose I/O completed gets the CPU back (on a busy 2-core VM that wait
# is what made p99 ~4 ms, one scheduler tick, for both tools). SCHED=normal runs them
# as ordinary tasks. Both tools always run under the same policy.
# Usage: bench/replay-vs-fio/run.sh [pgstorsim-binary]
# Env: BENCH_DIR (default /var/tmp/pgstorsim-bench), SIZE (1g), RUNTIME (10 s), RUNS (5),
#      PATTERNS ("randrw seqsync"), SCHED (fifo|normal).
set -euo pipefail
BIN=${1:-$(dirname "$0")/../../build/pgstorsim}
DIR=${BENCH_DIR:-/var/tmp/pgstorsim-bench}
SIZE=${SIZE:-1g}
RUNTIME=${RUNTIME:-10}
RUNS=${RUNS:-5}
PATTERNS=${PATTERNS:-randrw seqsync}
FILE=$DIR/data
SCHED=${SCHED:-$(chrt -f 1 true 2>/dev/null && echo fifo || echo normal)}
case $SCHED in
  fifo) RUNNER=(chrt -f 1) ;;
  normal) RUNNER=() ;;
  *) echo "run.sh: SCHED must be fifo or normal" >&2; exit 1 ;;
esac
mkdir -p "$DIR"
command -v fio >/dev/null || { echo "run.sh: fio not installed" >&2; exit 1; }
[ -x "$BIN" ] || { echo "run.sh: no pgstorsim binary at $BIN" >&2; exit 1; }

fio --name=layout --filename="$FILE" --size="$SIZE" --rw=write --bs=1m --direct=1 \
    --ioengine=psync --output=/dev/null

fio_run() {  # pattern out.json [extra fio options]
  local pattern=$1 out=$2
  shift 2
  local common=(--filename="$FILE" --size="$SIZE" --bs=8k --direct=1 --ioengine=psync
                --time_based --runtime="$RUNTIME" --group_reporting --output-format=json "$@")
  case $pattern in
    randrw) "${RUNNER[@]}" fio --name=randrw --rw=randrw --rwmixread=50 --numjobs=8 "${common[@]}" >"$out" ;;
    seqsync) "${RUNNER[@]}" fio --name=seqsync --rw=write --fdatasync=1 --numjobs=1 "${common[@]}" >"$out" ;;
  esac
}

ours_run() {  # pattern out.json
  case $1 in
    randrw) "${RUNNER[@]}" "$BIN" replay --pattern randrw --workers 8 --pattern-size "$SIZE" \
              --pattern-ops 65536 --engine psync --duration "${RUNTIME}s" --target "$FILE" \
              --allow-destroy "$FILE" --out "$2" --force >/dev/null ;;
    seqsync) "${RUNNER[@]}" "$BIN" replay --pattern seqwrite-fsync --workers 1 --pattern-size "$SIZE" \
              --pattern-ops 131072 --engine psync --duration "${RUNTIME}s" \
              --target "$FILE" --allow-destroy "$FILE" --out "$2" --force >/dev/null ;;
  esac
}

one() {  # tool pattern run
  case $1 in
    ours) ours_run "$2" "$DIR/ours-$2-$3.json" ;;
    fio) fio_run "$2" "$DIR/fio-$2-$3.json" ;;
    fiothread) fio_run "$2" "$DIR/fiothread-$2-$3.json" --thread ;;
  esac
}

echo "scheduling: $SCHED; runtime ${RUNTIME}s; $RUNS rounds; file $FILE ($SIZE)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for pattern in $PATTERNS; do
  for run in $(seq 1 "$RUNS"); do
    case $((run % 3)) in
      1) order="ours fiothread fio" ;;
      2) order="fiothread fio ours" ;;
      0) order="fio ours fiothread" ;;
    esac
    for tool in $order; do one "$tool" "$pattern" "$run"; done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$DIR" "$RUNS" "$PATTERNS" "$BIN" <<'PY'
import json, statistics, subprocess, sys
d, runs, patterns, BIN = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4]
PCTS = (("p50", "50.000000"), ("p95", "95.000000"), ("p99", "99.000000"))

def ours(pattern, run):
    # Our results through `report --format tsv` (columns by header name).
    tsv = subprocess.run([BIN, "report", "--format", "tsv", f"{d}/ours-{pattern}-{run}.json"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    header = tsv[0].split("\t")
    lines = [dict(zip(header, line.split("\t"))) for line in tsv[1:]]
    row = {"iops": float(lines[0]["tps"])}  # One access per transaction in both patterns.
    for st in lines[1:]:
        name = {"data read": "read", "data write": "write"}.get(st["statement"])
        if name and st["transactions"] not in ("", "0"):
            row[name] = [float(st[f"{label}_ms"]) for label, _ in PCTS]
    return row

def fio(pattern, run, kind):
    job = json.load(open(f"{d}/{kind}-{pattern}-{run}.json"))["jobs"][0]
    row = {"iops": job["read"]["iops"] + job["write"]["iops"]}
    for k in ("read", "write"):
        if job[k]["total_ios"]:
            pct = job[k]["clat_ns"]["percentile"]
            row[k] = [pct[key] / 1e6 for _, key in PCTS]
    return row

med = statistics.median
for pattern in patterns:
    o = [ours(pattern, r) for r in range(1, runs + 1)]
    for kind, name in (("fiothread", "fio --thread"), ("fio", "fio (processes)")):
        f = [fio(pattern, r, kind) for r in range(1, runs + 1)]
        ratios = [a["iops"] / b["iops"] for a, b in zip(o, f)]
        print(f"{pattern} ours vs {name}: median paired IOPS ratio {med(ratios):.3f} "
              f"(per round {[round(x, 3) for x in ratios]}); median IOPS ours "
              f"{med(x['iops'] for x in o):.0f}, {name} {med(x['iops'] for x in f):.0f}")
        for k in ("read", "write"):
            if k in o[0] and k in f[0]:
                cells = "  ".join(
                    f"{label} {med(x[k][i] for x in o):.3f}/{med(x[k][i] for x in f):.3f}"
                    for i, (label, _) in enumerate(PCTS))
                print(f"  {k:5s} latency ms ours/{name}: {cells}")
PY
