#!/usr/bin/env bash
# The instruments' agreement (issue 15, docs/lab.md "Instruments"): replay, simulate and
# predict of the same scenario on the lab's emulated RAID 10 (four throttled loop
# devices, 64 KiB filesystem blocks) at 32 KiB, 128 KiB and 1 MiB stripes, aligned and
# at a 63-sector offset, warm and cold. Runs lab-array.sh once per (offset, cache) with
# the three stripes (each writes its scenario, replays with `--scenario` -- the write
# path and OS cache of that scenario -- and runs simulate and predict on it), into
# results/validation/instruments/OFFSET-CACHE.tsv (+ -runs/ with every replay), and
# again with io.data_writes = direct into OFFSET-CACHE-direct.tsv, then writes
# results/validation/instruments.md with instruments_table.py.
#
#   lab-instruments.sh
#
# LAB_INSTRUMENTS_PREDICT_ONLY=1: re-runs simulate and predict on the saved replays (no
# root, lab or loop device); LAB_INSTRUMENTS_TABLE_ONLY=1: only the table. A warm set
# replays LAB_INSTRUMENTS_WARM_SECONDS [40] per run: its replay starts with an empty
# OS dirty set, which runs ~2.5 s at up to twice the steady tps (docs/lab.md); a cold set
# LAB_INSTRUMENTS_COLD_SECONDS [10], the ramp's start. LAB_INSTRUMENTS_WRITES
# ["buffered direct"]: the data-write paths measured. Other settings pass to
# lab-array.sh (LAB_ARRAY_RUNS [2 here], LAB_ARRAY_DATA_WRITES, PGSTORSIM_BINARY).
# Run it under `flock` on a lock file where several people share the lab.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/results/validation/instruments
export LAB_ARRAY_STRIPES="32KiB 128KiB 1MiB"
export LAB_ARRAY_RUNS=${LAB_ARRAY_RUNS:-2}
mkdir -p "$out"
if [[ ${LAB_INSTRUMENTS_TABLE_ONLY:-0} != 1 ]]; then
  for writes in ${LAB_INSTRUMENTS_WRITES:-buffered direct}; do
    suffix=
    [[ $writes == direct ]] && suffix=-direct
    for offset in 0 63s; do
      for cache in warm cold; do
        seconds=${LAB_INSTRUMENTS_COLD_SECONDS:-10}
        [[ $cache == warm ]] && seconds=${LAB_INSTRUMENTS_WARM_SECONDS:-40}
        LAB_ARRAY_OFFSET=$offset LAB_ARRAY_CACHE=$cache LAB_ARRAY_SECONDS=$seconds \
          LAB_ARRAY_DATA_WRITES=$writes \
          LAB_ARRAY_PREDICT_ONLY=${LAB_INSTRUMENTS_PREDICT_ONLY:-0} \
          "$here/lab-array.sh" "$out/$offset-$cache$suffix.tsv"
      done
    done
  done
fi
python3 "$here/instruments_table.py" "$out" >"$root/results/validation/instruments.md"
cat "$root/results/validation/instruments.md"
