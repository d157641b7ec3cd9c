#!/usr/bin/env bash
# Old vs new simulator speed on a shared machine: runs bench/sim-speed/run.sh with the
# two binaries alternately, ROUNDS times each (default 5), and prints each round's CPU
# seconds, the medians, the ratio of the medians and the median of the per-round
# ratios, with the load average before and after (CPU time on a loaded machine moves
# with the load; alternating spreads that over both binaries).
# Usage: bench/sim-speed/ab.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${1:?usage: ab.sh OLD_BINARY NEW_BINARY [ROUNDS]}
NEW=${2:?usage: ab.sh OLD_BINARY NEW_BINARY [ROUNDS]}
ROUNDS=${3:-5}
cpu_s() { SIM_SPEED_RUNS=1 bench/sim-speed/run.sh "$1" | sed -n 's/.*, cpu \([0-9.]*\) s .*/\1/p'; }
echo "ab: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
old=() new=()
for i in $(seq "$ROUNDS"); do
  old+=("$(cpu_s "$OLD")")
  new+=("$(cpu_s "$NEW")")
  echo "ab: round $i: old ${old[-1]} s, new ${new[-1]} s"
done
echo "ab: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "${old[*]}" "${new[*]}" <<'PY'
import statistics, sys
old = [float(x) for x in sys.argv[1].split()]
new = [float(x) for x in sys.argv[2].split()]
mo, mn = statistics.median(old), statistics.median(new)
paired = statistics.median(n / o for o, n in zip(old, new))
print(f"ab: median cpu old {mo:.2f} s, new {mn:.2f} s; new/old {mn / mo:.3f} "
      f"(median of per-round ratios {paired:.3f})")
PY
