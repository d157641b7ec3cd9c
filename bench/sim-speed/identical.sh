#!/usr/bin/env bash
# No-behaviour-change check for speed work and refactoring: runs the same `simulate`
# settings (the bench workload and eleven variations of scenarios/m5110e.toml and
# results/validation/m5110e-calibrated.toml, among them asynchronous commit, an SSD
# array and the simulator-only calibration keys), five `predict` settings, one
# `calibrate` fit and three `trace` settings with two binaries, and compares the
# results JSON without created_utc, the calibrated TOML and the trace files byte for
# byte. Prints one line per output and exits non-zero if any differs.
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
  s m_async --scenario $M --seed 7 --duration 60s --set postgres.synchronous_commit=off
  s c_ssd --scenario $C --seed 8 --duration 60s --set disks.type=ssd
  s c_simkeys --scenario $C --seed 9 --duration 60s --set calibration.cpu_ms_end=0.1 \
    --set calibration.client_rtt_ms=0.05 --set calibration.controller_destage_outstanding=3 \
    --set calibration.os_writes_outstanding=16 --set calibration.row_locks=0
  p() { local n=$1; shift; "$bin" predict "$@" --out "$dir/$n.json" >/dev/null; }
  p p_m --scenario $M
  p p_c --scenario $C
  p p_c_sweep --scenario $C --sweep array.stripe=32k,128k,1MiB --sweep workload.clients=1,10
  p p_c_raid5 --scenario $C --set array.level=raid5 --set array.disks=5 --set workload.cache=cold
  p p_lab --scenario results/validation/lab-matrix-scenarios/lab-600-s5.toml
  c() { local n=$1; shift; "$bin" calibrate "$@" --out "$dir/$n.toml" >/dev/null; }
  c cal_s10 --scenario $M --measured tests/model/data/pgbench15-s10-c4.txt \
    --set workload.scale=10 --set workload.clients=4 --accept-poor-fit
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
        summary = ja.get("summary", {})
        detail = f"{summary.get('transactions', 0)} transactions, tps {summary.get('tps', 0):.1f}"
    else:
        same = filecmp.cmp(a, b, shallow=False)
        detail = f"{os.path.getsize(a)} bytes"
    same_all &= same
    print(f"identical: {name:16s} {'same' if same else 'DIFFERENT'} ({detail})")
print("identical: all outputs identical" if same_all else "identical: OUTPUTS DIFFER")
sys.exit(0 if same_all else 1)
PY
