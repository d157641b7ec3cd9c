#!/usr/bin/env bash
# Driver vs pgbench on the same server and scale: TPC-B-like, prepared protocol,
# clients 1, 4, 10, ours and pgbench alternating (which goes first alternates too, so
# a drifting machine load favours neither), RUNS runs of SECONDS each, both tools with
# the same threads (-j 1 for 1 client, else -j 2). Prints per client count the median
# tps of each tool, their ratio ours/pgbench, the median of the per-run (paired)
# ratios, and client CPU (user+sys of the driver process, from /usr/bin/time) per
# transaction; and the load average before and after.
# Usage: bench/driver-vs-pgbench/run.sh      env: PGSTORSIM_BENCH_DB (conninfo; default:
#        the embedded cluster), BENCH_SCALE=10, BENCH_SECONDS=10, BENCH_RUNS=3,
#        BENCH_CLIENTS="1 4 10", PGSTORSIM_BINARY (default build/pgstorsim).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${PGSTORSIM_BINARY:-$(pwd)/build/pgstorsim}
SCALE=${BENCH_SCALE:-10}
SECS=${BENCH_SECONDS:-10}
RUNS=${BENCH_RUNS:-3}
CLIENTS=${BENCH_CLIENTS:-"1 4 10"}
PGBENCH=$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -n1)
[ -x "$BIN" ] || { echo "bench: $BIN not built (scripts/setup.sh)" >&2; exit 1; }
[ -n "$PGBENCH" ] || { echo "bench: pgbench not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

if [ -n "${PGSTORSIM_BENCH_DB:-}" ]; then
  DB=$PGSTORSIM_BENCH_DB
else
  "$BIN" cluster start >/dev/null
  DB=$("$BIN" cluster status | sed -n 's/^conninfo: //p')
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "bench: server '$DB', scale $SCALE, ${SECS}s x $RUNS runs, prepared, tpcb-like"
"$BIN" init --scale "$SCALE" --db "$DB" --out "$work/init.json" | tail -n1

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# run_one <tool> <clients> <threads>: prints "tps cpu_us_per_txn"
run_one() {
  local tool=$1 c=$2 j=$3 out=$work/out.txt cpu=$work/cpu.txt
  if [ "$tool" = ours ]; then
    /usr/bin/time -f "%U %S" -o "$cpu" "$BIN" run --db "$DB" -c "$c" -j "$j" -T "${SECS}s" \
      -M prepared --out "$work/run.json" >"$out" 2>&1
  else
    /usr/bin/time -f "%U %S" -o "$cpu" "$PGBENCH" -n -M prepared -c "$c" -j "$j" -T "$SECS" \
      "$DB" >"$out" 2>&1
  fi
  local tps txns
  tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$out" | tail -n1)
  txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out")
  awk -v t="$tps" -v n="$txns" '{printf "%s %.1f\n", t, ($1 + $2) * 1e6 / (n > 0 ? n : 1)}' "$cpu"
}

echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-8s %12s %12s %8s %8s %14s %14s\n" clients ours_tps pgbench_tps ratio paired ours_cpu_us \
  pgbench_cpu_us
for c in $CLIENTS; do
  j=$(( c < 2 ? 1 : 2 ))
  : >"$work/ours"; : >"$work/theirs"
  for r in $(seq "$RUNS"); do
    if [ $((r % 2)) -eq 1 ]; then
      run_one ours "$c" "$j" >>"$work/ours"
      run_one pgbench "$c" "$j" >>"$work/theirs"
    else
      run_one pgbench "$c" "$j" >>"$work/theirs"
      run_one ours "$c" "$j" >>"$work/ours"
    fi
  done
  ot=$(cut -d' ' -f1 "$work/ours" | median); pt=$(cut -d' ' -f1 "$work/theirs" | median)
  oc=$(cut -d' ' -f2 "$work/ours" | median); pc=$(cut -d' ' -f2 "$work/theirs" | median)
  # paired: median over runs of (ours / pgbench) of the two back-to-back runs.
  pr=$(paste -d' ' "$work/ours" "$work/theirs" | awk '{print ($3 > 0) ? $1 / $3 : 0}' | median)
  printf "%-8s %12.1f %12.1f %8.3f %8.3f %14.1f %14.1f\n" "$c" "$ot" "$pt" \
    "$(awk -v a="$ot" -v b="$pt" 'BEGIN {print (b > 0) ? a / b : 0}')" "$pr" "$oc" "$pc"
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
