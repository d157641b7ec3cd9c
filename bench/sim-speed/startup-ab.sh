#!/usr/bin/env bash
# Old vs new lone-process cost: `predict` of scenarios/m5110e.toml with run.sh's host at
# scales 2000, 200000 and 1000000 (one point per process), `pgstorsim version` and
# `pgstorsim run --help` (process start-up), each run ROUNDS times (default 21) with the
# two binaries alternately, pinned to core 0 when taskset is present. Per case: median
# and minimum CPU ms (user + sys from the process's rusage), the median of the per-pair
# new/old ratios, and the median peak RSS. Outputs are discarded (identical.sh checks them).
# Usage: bench/sim-speed/startup-ab.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${1:?usage: startup-ab.sh OLD_BINARY NEW_BINARY [ROUNDS]}
NEW=${2:?usage: startup-ab.sh OLD_BINARY NEW_BINARY [ROUNDS]}
ROUNDS=${3:-21}
PIN=""
command -v taskset >/dev/null && PIN="taskset -c 0"
echo "startup-ab: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OLD" "$NEW" "$ROUNDS" "$PIN" <<'PY'
import os, statistics, subprocess, sys
old, new, rounds, pin = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split()
host = ["--set", "array.level=raid10", "--set", "array.disks=4", "--set", "array.stripe=32k",
        "--set", "filesystem.block_size=64k", "--set", "filesystem.fragment_size=64k",
        "--set", "filesystem.partition_offset=32256", "--set", "host.ram=24GiB",
        "--set", "host.cpu_cores=12", "--set", "postgres.shared_buffers=2GiB",
        "--set", "postgres.checkpoint_segments=3", "--set", "controller.cache_size=512MiB",
        "--set", "workload.clients=10", "--set", "disks.capacity=40TB"]
cases = [(f"predict scale {s}", ["predict", "--scenario", "scenarios/m5110e.toml"] + host +
          ["--set", f"workload.scale={s}"]) for s in (2000, 200000, 1000000)]
cases += [("version", ["version"]), ("run --help", ["run", "--help"])]

def timed(binary, args):
    child = subprocess.Popen(pin + [binary] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"startup-ab: failed: {binary} {' '.join(args)}")
    return (usage.ru_utime + usage.ru_stime) * 1e3, usage.ru_maxrss / 1024

for name, args in cases:
    o, n = [], []
    for _ in range(rounds):
        o.append(timed(old, args))
        n.append(timed(new, args))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    ratio = statistics.median(b[0] / a[0] for a, b in zip(o, n))
    print(f"startup-ab: {name}: cpu ms old median {med(o, 0):.1f} (min {min(x[0] for x in o):.1f}), "
          f"new median {med(n, 0):.1f} (min {min(x[0] for x in n):.1f}), new/old {ratio:.2f}; "
          f"peak RSS MB old {med(o, 1):.1f}, new {med(n, 1):.1f}", flush=True)
PY
echo "startup-ab: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
