#!/usr/bin/env bash
# Checks that the lab's throttle holds: brings up one emulated disk (lab-disks.sh run,
# so it is always torn down), runs fio inside the lab cgroup (8 KiB random reads and
# writes, O_DIRECT, psync, queue depth 1 and 8; 1 MiB sequential reads for the
# bandwidth cap) and prints achieved vs cap, then the same random read outside the
# cgroup for contrast.
#
#   lab-fio-check.sh [IOPS] [MBPS] [SECONDS]     (defaults 200 20 5)
set -euo pipefail
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lab-common.sh"

iops=${1:-200}
mbps=${2:-20}
seconds=${3:-5}
lab_require_uint IOPS "$iops"
lab_require_uint MBPS "$mbps"
lab_require_uint SECONDS "$seconds"
command -v fio >/dev/null || lab_skip "fio not installed"
command -v python3 >/dev/null || lab_skip "python3 needed to read fio's JSON"

# Runs inside the cgroup (via lab-disks.sh run): one fio job per line of output.
if [[ ${LAB_FIO_INNER:-} == 1 ]]; then
  # shellcheck source=/dev/null
  . "$LAB_DISKS_ENV"
  dev=${LAB_DISKS%% *}
  job() {  # label rw bs iodepth engine
    local rate_iops rate_bytes
    read -r rate_iops rate_bytes < <(fio --name="$1" --filename="$dev" --direct=1 --rw="$2" \
      --bs="$3" --iodepth="$4" --ioengine="$5" --runtime="$seconds" --time_based \
      --output-format=json | lab_fio_rate)
    awk -v l="$1" -v i="$rate_iops" -v b="$rate_bytes" \
      'BEGIN {printf "%-28s %10.1f IOPS %8.2f MiB/s\n", l, i, b / 1048576}'
  }
  job "randread 8k qd1 (in cgroup)" randread 8k 1 psync
  job "randread 8k qd8 (in cgroup)" randread 8k 8 libaio
  job "randwrite 8k qd1 (in cgroup)" randwrite 8k 1 psync
  job "read 1M seq qd4 (in cgroup)" read 1M 4 libaio
  echo $$ >"$LAB_BLKIO_ROOT/cgroup.procs"
  job "randread 8k qd1 (outside)" randread 8k 1 psync
  exit 0
fi

lab_say "cap: $iops IOPS and $mbps MiB/s per direction; $seconds s per job"
LAB_FIO_INNER=1 "$(dirname "$0")/lab-disks.sh" run 1 256M "$iops" "$mbps" -- "$0" "$@"
