#!/usr/bin/env bash
# No-behaviour-change check for speed work: runs the same `simulate` settings (the
# bench workload and eight 120 s variations of scenarios/m5110e.toml and
# results/validation/m5110e-calibrated.toml) and three `trace` settings with two
# binaries, and compares the results JSON without created_utc and the trace files
# byte for byte. Prints one line per output and exits non-zero if any differs.
# Usage: bench/sim-speed/identical.sh OLD_BINARY NEW_BINARY
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${1:?usage: identical.sh OLD_BINARY NEW_BINARY}
NEW=${2:?usage: identical.sh OLD_BINARY NEW_BINARY}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
M=scenarios/m5110e.toml
C=results/validation/m5110e-calibrated.toml
BENCH=(--duration 900s --seed 1 --set array.level=raid10 --set array.disks=4
       --set array.stripe=32k --set filesystem.block_size=64k --set filesystem.fragment_size=64k
       --set filesystem.partition_offset=32256 --set host.ram=24GiB --set host.cpu_cores=12
       --set postgres.shared_buffers=2GiB --set postgres.max_wal_size=96MiB
       --set controller.cache_size=512MiB --set workload.scale=2000 --set workload.clients=10)
run_all() {  # BINARY DIR
  local bin=$1 dir=$2
  mkdir -p "$dir"
  s() { local n=$1; shift; "$bin" simulate "$@" --out "$dir/$n.json" --quiet >/dev/null; }
  s bench "${BENCH[@]}"
  s m_cold --scenario $M --seed 2 --duration 120s --set workload.cache=cold
  s m_1m6000 --scenario $M --seed 3 --duration 120s --set array.stripe=1MiB --set workload.scale=6000
  s m_qd1 --scenario $M --seed 3 --duration 120s --set io.queue_depth=1 \
    --set controller.read_ahead=always
  s m_simple --scenario $M --seed 5 --duration 120s --set workload.type=simple-update \
    --set workload.clients=3
  s c_warm --scenario $C --seed 1 --duration 120s
  s c_cold200 --scenario $C --seed 4 --duration 120s --set workload.cache=cold \
    --set workload.scale=200
  s c_raid5 --scenario $C --seed 3 --duration 120s --set array.level=raid5 --set array.disks=5 \
    --set array.stripe=1MiB --set workload.clients=4
  s c_wt --scenario $C --seed 6 --duration 120s --set controller.write_policy=write-through \
    --set array.stripe=128k
  t() { local n=$1; shift; "$bin" trace --transactions 20000 "$@" --out "$dir/$n.trace" >/dev/null; }
  t t1 --scale 5 --cache cold --shared-buffers 2MiB --os-cache 16MiB --seed 3
  t t2 --scale 20 --cache warm --shared-buffers 16MiB --os-cache 64MiB --readahead 128KiB --seed 4
  t t3 --scale 10 --workload simple-update --fillfactor 90 --shared-buffers 8MiB \
    --os-cache 32MiB --seed 5
}
run_all "$OLD" "$OUT/old"
run_all "$NEW" "$OUT/new"
python3 - "$OUT/old" "$OUT/new" <<'PY'
import filecmp, json, os, sys
old, new = sys.argv[1], sys.argv[2]
same_all = True
for name in sorted(os.listdir(old)):
    a, b = os.path.join(old, name), os.path.join(new, name)
    if name.endswith(".json"):
        ja, jb = json.load(open(a)), json.load(open(b))
        for j in (ja, jb):
            j.pop("created_utc", None)
        same = ja == jb
        detail = f"{ja['summary']['transactions']} transactions, tps {ja['summary']['tps']:.1f}"
    else:
        same = filecmp.cmp(a, b, shallow=False)
        detail = f"{os.path.getsize(a)} bytes"
    same_all &= same
    print(f"identical: {name:16s} {'same' if same else 'DIFFERENT'} ({detail})")
print("identical: all outputs identical" if same_all else "identical: OUTPUTS DIFFER")
sys.exit(0 if same_all else 1)
PY
