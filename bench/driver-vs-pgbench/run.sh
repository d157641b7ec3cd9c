#!/usr/bin/env bash
# Driver vs pgbench on the same server and scale: TPC-B-like, prepared protocol,
# clients 1, 4, 10, ours and pgbench alternating (which goes first alternates too, so
# a drifting machine load favours neither), RUNS runs of SECONDS each, both tools with
# the same threads (-j 1 for 1 client, else -j 2) and the same command prefix.
# Prints per client count:
#   ours_tps, pgbench_tps  median tps of each tool; ratio = their ratio ours/pgbench;
#   paired                 median of the per-run ratios (back-to-back runs);
#   ours_cpu, pgb_cpu      median client CPU per transaction in us: user+sys of the
#                          whole process (wait4 rusage in microseconds, see cpu_time):
#                          start-up, connections and (ours) the server-statistics
#                          queries and results file included;
#   cpu_pr                 median of the per-run CPU ratios ours/pgbench;
#   lower                  in how many of the back-to-back pairs ours used less CPU per
#                          transaction than pgbench;
#   ours_net, pgb_net      the same minus each tool's fixed cost (median CPU of FIXED_RUNS
#                          runs of one transaction per client with the same -c/-j), i.e.
#                          CPU per transaction of the steady state, like for like;
#   ours_span              ours as it reports itself (sections.client_cpu: clients
#                          connected to engine end, all threads), median;
#   ours_mb, pgb_mb        median peak resident memory of the process (wait4 ru_maxrss), MB;
#   target                 "met" when paired >= 1.0 and cpu_pr <= 1.0 (issue 16: tps ratio
#                          >= 1.0 and client CPU per transaction <= pgbench's), else "missed".
# and the load average before and after. Needs bash, python3, awk and pgbench only.
# Usage: bench/driver-vs-pgbench/run.sh      env: PGSTORSIM_BENCH_DB (conninfo; default:
#        the embedded cluster), BENCH_SCALE=10, BENCH_SECONDS=10, BENCH_RUNS=3,
#        BENCH_FIXED_RUNS=3, BENCH_CLIENTS="1 4 10", PGSTORSIM_BINARY (default
#        build/pgstorsim), BENCH_PREFIX (command prefix for both tools, e.g. "chrt -f 1"
#        or "taskset -c 1"; default none), BENCH_SKIP_INIT=1 (tables already there),
#        BENCH_SCRIPT=FILE (both tools run this -f script instead of the builtin, e.g.
#        bench/driver-vs-pgbench/tpcb-like.sql: ours through its script interpreter).
# Both tools skip the pre-run vacuum (-n).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${PGSTORSIM_BINARY:-$(pwd)/build/pgstorsim}
SCALE=${BENCH_SCALE:-10}
SECS=${BENCH_SECONDS:-10}
RUNS=${BENCH_RUNS:-3}
FIXED_RUNS=${BENCH_FIXED_RUNS:-3}
CLIENTS=${BENCH_CLIENTS:-"1 4 10"}
read -r -a PREFIX <<<"${BENCH_PREFIX:-}"
SCRIPT_ARGS=()
[ -n "${BENCH_SCRIPT:-}" ] && SCRIPT_ARGS=(-f "$BENCH_SCRIPT" -s "$SCALE")
PGBENCH=$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -n1)
[ -x "$BIN" ] || { echo "bench: $BIN not built (scripts/setup.sh)" >&2; exit 1; }
[ -n "$PGBENCH" ] || { echo "bench: pgbench not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: python3 missing" >&2; exit 1; }

if [ -n "${PGSTORSIM_BENCH_DB:-}" ]; then
  DB=$PGSTORSIM_BENCH_DB
else
  "$BIN" cluster start >/dev/null
  DB=$("$BIN" cluster status | sed -n 's/^conninfo: //p')
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "bench: server '$DB', scale $SCALE, ${SECS}s x $RUNS runs, prepared," \
  "${BENCH_SCRIPT:-builtin tpcb-like}," \
  "prefix '${PREFIX[*]:-}'"
if [ "${BENCH_SKIP_INIT:-0}" != 1 ]; then
  "$BIN" init --force --scale "$SCALE" --db "$DB" --out "$work/init.json" | tail -n1
fi

# cpu_time <file> <command...>: runs the command, writes "user_s sys_s peak_kb" of it (all
# its threads; wait4 rusage, ru_maxrss in KB on Linux) to <file>.
cpu_time() {
  python3 -c 'import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, _, ru = os.wait4(pid, 0)
open(sys.argv[1], "w").write("%.6f %.6f %d\n" % (ru.ru_utime, ru.ru_stime, ru.ru_maxrss))' "$@"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# paired_ratio <ours> <theirs>: median over the lines of ours/theirs of their first column.
paired_ratio() {
  paste -d' ' <(cut -d' ' -f1 "$1") <(cut -d' ' -f1 "$2") | awk '{print ($2 > 0) ? $1 / $2 : 0}' |
    median
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print (b > 0) ? a / b : 0}'; }

# run_one <tool> <clients> <threads> <length: -T or -t> <value>: prints
# "tps transactions cpu_s span_us peak_kb" (span_us: ours' own figure, 0 for pgbench).
run_one() {
  local tool=$1 c=$2 j=$3 how=$4 n=$5 out=$work/out.txt cpu=$work/cpu.txt span=0
  if [ "$tool" = ours ]; then
    rm -f "$work/run.json"
    cpu_time "$cpu" "${PREFIX[@]}" "$BIN" run -n --db "$DB" -c "$c" -j "$j" "${SCRIPT_ARGS[@]}" \
      "$how" "$n$([ "$how" = -T ] && echo s)" -M prepared --out "$work/run.json" >"$out" 2>&1
    span=$(sed -n 's/.*"us_per_transaction": *\([0-9.e+-]*\).*/\1/p' "$work/run.json" | head -n1)
  else
    cpu_time "$cpu" "${PREFIX[@]}" "$PGBENCH" -n -M prepared -c "$c" -j "$j" "${SCRIPT_ARGS[@]}" \
      "$how" "$n" "$DB" >"$out" 2>&1
  fi
  local tps txns
  tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$out" | tail -n1)
  txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out")
  awk -v t="${tps:-0}" -v n="${txns:-0}" -v s="${span:-0}" '{print t, n, $1 + $2, s, $3}' "$cpu"
}

# fixed_cost <tool> <clients> <threads>: median CPU seconds of one transaction per client.
fixed_cost() {
  for _ in $(seq "$FIXED_RUNS"); do run_one "$1" "$2" "$3" -t 1 | cut -d' ' -f3; done | median
}

echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-7s %9s %9s %6s %6s %8s %8s %6s %5s %8s %8s %9s %7s %7s %s\n" clients ours_tps \
  pgb_tps ratio paired ours_cpu pgb_cpu cpu_pr lower ours_net pgb_net ours_span ours_mb pgb_mb \
  target
for c in $CLIENTS; do
  j=$(( c < 2 ? 1 : 2 ))
  : >"$work/ours"; : >"$work/theirs"
  for r in $(seq "$RUNS"); do
    if [ $((r % 2)) -eq 1 ]; then
      run_one ours "$c" "$j" -T "$SECS" >>"$work/ours"
      run_one pgbench "$c" "$j" -T "$SECS" >>"$work/theirs"
    else
      run_one pgbench "$c" "$j" -T "$SECS" >>"$work/theirs"
      run_one ours "$c" "$j" -T "$SECS" >>"$work/ours"
    fi
  done
  fo=$(fixed_cost ours "$c" "$j"); fp=$(fixed_cost pgbench "$c" "$j")
  # Per run: cpu us/txn (whole process) and net of the tool's fixed cost.
  per_txn() { awk -v f="$1" '{n = ($2 > 0) ? $2 : 1; print $3 * 1e6 / n, ($3 - f) * 1e6 / n}'; }
  per_txn "$fo" <"$work/ours" >"$work/ours_cpu"; per_txn "$fp" <"$work/theirs" >"$work/theirs_cpu"
  ot=$(cut -d' ' -f1 "$work/ours" | median); pt=$(cut -d' ' -f1 "$work/theirs" | median)
  oc=$(cut -d' ' -f1 "$work/ours_cpu" | median); pc=$(cut -d' ' -f1 "$work/theirs_cpu" | median)
  on=$(cut -d' ' -f2 "$work/ours_cpu" | median); pn=$(cut -d' ' -f2 "$work/theirs_cpu" | median)
  os=$(cut -d' ' -f4 "$work/ours" | median)
  # paired: median over runs of (ours / pgbench) of the two back-to-back runs.
  pr=$(paired_ratio "$work/ours" "$work/theirs")
  cr=$(paired_ratio "$work/ours_cpu" "$work/theirs_cpu")
  lw=$(paste -d' ' <(cut -d' ' -f1 "$work/ours_cpu") <(cut -d' ' -f1 "$work/theirs_cpu") |
    awk '$1 < $2 {n++} END {print n + 0}')
  om=$(awk '{print $5 / 1024}' "$work/ours" | median)
  pm=$(awk '{print $5 / 1024}' "$work/theirs" | median)
  verdict=$(awk -v p="$pr" -v c="$cr" 'BEGIN {print (p >= 1.0 && c <= 1.0) ? "met" : "missed"}')
  printf "%-7s %9.1f %9.1f %6.3f %6.3f %8.1f %8.1f %6.3f %5s %8.1f %8.1f %9.1f %7.1f %7.1f %s\n" \
    "$c" "$ot" "$pt" "$(ratio "$ot" "$pt")" "$pr" "$oc" "$pc" "$cr" "$lw/$RUNS" "$on" "$pn" "$os" \
    "$om" "$pm" "$verdict"
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench: target (issue 16): paired >= 1.000 and cpu_pr <= 1.000 at every client count"
