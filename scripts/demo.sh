#!/usr/bin/env bash
# The README's main job, end to end, on a fresh Debian 12 machine as root,
# non-interactive: installs packages and builds (scripts/setup.sh), then
# part 1, "your server", on the embedded PostgreSQL cluster (created and started by
# pgstorsim itself, kept in ${PGSTORSIM_HOME:-/var/tmp/pgstorsim-cluster}): load a
# scale-10 pgbench database, probe the server into a scenario, a warm and a cold TPC-B
# run, calibrate the probed scenario on the warm run, predict what more shared_buffers
# would do; trace and replay the warm run's transactions;
# part 2, the ServeRAID M5110e field scenario: calibrate, predict a stripe x cache
# policy sweep, simulate; then one report of both. Results go to results/runs/.
# Usage: scripts/demo.sh     (env DEMO_SECONDS=20 DEMO_CLIENTS=4 DEMO_SCALE=10;
#        PGSTORSIM_BINARY=path skips setup.sh and uses that binary)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${DEMO_SECONDS:-20}
CLIENTS=${DEMO_CLIENTS:-4}
SCALE=${DEMO_SCALE:-10}

if [ -n "${PGSTORSIM_BINARY:-}" ]; then
  BIN=$PGSTORSIM_BINARY
else
  scripts/setup.sh
  BIN=$(pwd)/build/pgstorsim
fi
# Force the embedded cluster even if the caller's environment names a server.
unset PGSTORSIM_DB PGHOST PGDATABASE PGPORT PGUSER

stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p results/runs
init_json=results/runs/demo-$stamp-init.json
warm_json=results/runs/demo-$stamp-run-warm.json
cold_json=results/runs/demo-$stamp-run-cold.json
keys_log=results/runs/demo-$stamp-warm.keys

echo "== demo part 1: your server (the embedded cluster)"
echo "== demo: pgbench schema at scale $SCALE on the embedded cluster"
"$BIN" init --force --scale "$SCALE" --out "$init_json"
"$BIN" cluster status

echo "== demo: probe the server into a scenario (every value says where it came from)"
probed=results/runs/demo-$stamp-probe.toml
"$BIN" probe --clients "$CLIENTS" --out "$probed"

echo "== demo: warm run ($CLIENTS clients, $SECONDS_PER_RUN s, prepared)"
"$BIN" run --cache warm --clients "$CLIENTS" --threads 2 --duration "${SECONDS_PER_RUN}s" \
  --protocol prepared --progress 5s --keys-log "$keys_log" --out "$warm_json" --label demo-warm

echo "== demo: cold run ($CLIENTS clients, $SECONDS_PER_RUN s, prepared)"
"$BIN" run --cache cold --clients "$CLIENTS" --threads 2 --duration "${SECONDS_PER_RUN}s" \
  --protocol prepared --progress 5s --out "$cold_json" --label demo-cold

echo "== demo: calibrate the probed scenario on the warm run, predict more shared_buffers"
own_calibrated=results/runs/demo-$stamp-probe-calibrated.toml
# The probed scenario assumes what Linux cannot show (disk mechanics, a controller), so
# the fit may be poor on a VM; calibrate prints how poor and writes it anyway here. The
# runs use prepared statements, which a probe cannot know: --set brings the scenario to
# the measured protocol.
"$BIN" calibrate --scenario "$probed" --measured "$warm_json" --out "$own_calibrated" \
  --set workload.protocol=prepared --accept-poor-fit
own_predict_json=results/runs/demo-$stamp-own-predict.json
"$BIN" predict --scenario "$own_calibrated" \
  --sweep postgres.shared_buffers=128MiB,512MiB,2GiB --out "$own_predict_json"

echo "== demo: trace of the warm run's transactions (8 KiB page I/O after the caches)"
trace_file=results/runs/demo-$stamp.trace
"$BIN" trace --scale "$SCALE" --keys-log "$keys_log" --relations "$init_json" \
  --shared-buffers 128MiB --os-cache 256MiB --cache warm --out "$trace_file"

echo "== demo: replay of that trace on a file (O_DIRECT; data pages through the emulated 256 MiB OS cache, $CLIENTS workers)"
replay_json=results/runs/demo-$stamp-replay.json
"$BIN" replay --trace "$trace_file" --target results/runs/demo-data.img \
  --workers "$CLIENTS" --duration 10s --out "$replay_json" --label demo-replay

echo "== demo part 2: model of the ServeRAID M5110e field server (scenarios/m5110e.toml)"
calibrated=results/runs/demo-$stamp-m5110e-calibrated.toml
# calibrate's default fit: what the scenario leaves open, i.e. what `pgstorsim validate`
# fits for this server (docs/model.md).
"$BIN" calibrate --scenario scenarios/m5110e.toml \
  --measured results/validation/m5110e-32k-warm.pgbench.txt --out "$calibrated"
predict_json=results/runs/demo-$stamp-predict.json
"$BIN" predict --scenario "$calibrated" --sweep array.stripe=32k,64k,128k,1MiB \
  --sweep controller.write_policy=write-back,write-through \
  --sweep workload.clients=1,5,10,20,40 --slo "p95<50ms" --out "$predict_json"
sim_json=results/runs/demo-$stamp-simulate.json
"$BIN" simulate --scenario "$calibrated" --duration 900s --out "$sim_json" --quiet
# The same question to the simulator at 1 MiB: the report pairs it with the sweep point.
sim_1m_json=results/runs/demo-$stamp-simulate-1MiB.json
"$BIN" simulate --scenario "$calibrated" --set array.stripe=1MiB --duration 900s \
  --out "$sim_1m_json" --quiet

echo "== demo: report"
report=results/runs/demo-$stamp-report.html
"$BIN" report "$warm_json" "$cold_json" "$own_predict_json" "$replay_json" "$predict_json" "$sim_json" \
  "$sim_1m_json" --out "$report" --title "pgstorsim demo $stamp"

echo "== demo: results"
echo "init:      $init_json"
echo "probe:     $probed (calibrated: $own_calibrated)"
echo "own predict: $own_predict_json"
echo "warm run:  $warm_json"
echo "cold run:  $cold_json"
echo "keys log:  $keys_log"
echo "trace:     $trace_file"
echo "replay:    $replay_json"
echo "predict:   $predict_json (calibrated scenario $calibrated)"
echo "simulate:  $sim_json"
echo "report:    $(pwd)/$report (and ${report%.html}.md)"
