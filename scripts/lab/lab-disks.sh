#!/usr/bin/env bash
# Emulated disks for the pgstorsim lab: N loop devices on sparse files, opened with
# direct I/O and no volatile write cache (so fsync sends no cache flush), each
# throttled by cgroup v1 blkio to IOPS reads and IOPS writes per second and MBPS MiB/s
# each way, for the processes in the lab cgroup.
#
#   lab-disks.sh up N SIZE IOPS MBPS   create and throttle; prints the devices
#   lab-disks.sh set-limits IOPS MBPS  change the throttle of every lab disk (and
#                                      disks.env), e.g. load unthrottled, then measure
#   lab-disks.sh exec CMD [ARGS...]    run CMD inside the throttled cgroup
#   lab-disks.sh run N SIZE IOPS MBPS -- CMD [ARGS...]
#                                      up, CMD in the cgroup, then always down
#   lab-disks.sh status                devices, limits, I/O counted by the cgroup
#   lab-disks.sh down                  remove everything (idempotent)
#
# A failed or interrupted `up` tears down what it made. Prints "lab: skipped: <reason>"
# and exits 0 where the kernel does not allow the lab. Details: docs/lab.md.
set -euo pipefail
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lab-common.sh"

LAB_DISKS_LIST=$LAB_STATE/disks.list  # "device image" per line, appended as made.

usage() {
  sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" >&2
  exit 2
}

disks_down() {
  local dev img mm
  if [[ -f $LAB_DISKS_LIST ]]; then
    while read -r dev img; do
      [[ -z ${dev:-} ]] && continue
      if [[ -e /sys/class/block/$(basename "$dev") ]]; then
        mm=$(lab_majmin "$dev")
        for f in read_iops_device write_iops_device read_bps_device write_bps_device; do
          if [[ -e $LAB_BLKIO_CGROUP/blkio.throttle.$f ]]; then
            echo "$mm 0" >"$LAB_BLKIO_CGROUP/blkio.throttle.$f" 2>/dev/null || true
          fi
        done
        losetup -d "$dev" 2>/dev/null || lab_say "warning: could not detach $dev"
      fi
      rm -f "$img"
    done <"$LAB_DISKS_LIST"
  fi
  lab_remove_cgroup "$LAB_BLKIO_CGROUP" "$LAB_BLKIO_ROOT"
  rm -f "$LAB_DISKS_LIST" "$LAB_DISKS_ENV"
  rmdir "$LAB_STATE" 2>/dev/null || true
}

throttle() {  # device iops bytes_per_s
  local mm
  mm=$(lab_majmin "$1")
  echo "$mm $2" >"$LAB_BLKIO_CGROUP/blkio.throttle.read_iops_device"
  echo "$mm $2" >"$LAB_BLKIO_CGROUP/blkio.throttle.write_iops_device"
  echo "$mm $3" >"$LAB_BLKIO_CGROUP/blkio.throttle.read_bps_device"
  echo "$mm $3" >"$LAB_BLKIO_CGROUP/blkio.throttle.write_bps_device"
}

# A loop device announces a volatile write cache, so every fsync/fdatasync on it also
# sends a cache flush, which blkio counts as one more write against the IOPS cap. The
# lab's disk is a disk with its write cache off (the scenario's drive_write_cache =
# off), for which Linux sends no flushes: say so to the block layer.
no_write_cache() {  # device
  local wc
  wc=/sys/block/$(basename "$1")/queue/write_cache
  echo "write through" >"$wc" 2>/dev/null ||
    lab_say "warning: could not set $wc to write through: each fsync costs one more write"
}

disks_up() {  # N SIZE IOPS MBPS
  [[ $# -eq 4 ]] || usage
  local n=$1 size=$2 iops=$3 mbps=$4 size_bytes bps devices="" img dev i
  lab_require_uint N "$n"
  lab_require_uint IOPS "$iops"
  lab_require_uint MBPS "$mbps"
  ((n <= 16)) || lab_die "N must be at most 16, got $n"
  size_bytes=$(lab_bytes "$size")
  ((size_bytes >= 1 << 20)) || lab_die "SIZE must be at least 1M, got $size"
  bps=$((mbps << 20))
  lab_require_root
  lab_require_blkio
  lab_require_loop
  [[ ! -e $LAB_DISKS_LIST ]] || lab_die "lab disks already up ($LAB_DISKS_LIST); run: $0 down"
  LAB_UP_OK=0
  trap 'if [[ $LAB_UP_OK -eq 0 ]]; then lab_say "up failed or interrupted: tearing down"; disks_down; fi' EXIT
  trap 'exit 130' INT TERM
  mkdir -p "$LAB_STATE"
  : >"$LAB_DISKS_LIST"
  lab_make_cgroup "$LAB_BLKIO_CGROUP"
  for ((i = 0; i < n; i++)); do
    img=$LAB_STATE/disk$i.img
    truncate -s "$size_bytes" "$img"
    dev=$(losetup --find --show --direct-io=on "$img") ||
      lab_skip "losetup could not attach $img (no free loop device?)"
    echo "$dev $img" >>"$LAB_DISKS_LIST"
    no_write_cache "$dev"
    throttle "$dev" "$iops" "$bps"
    devices+="${devices:+ }$dev"
    lab_say "disk$i: $dev ($(lab_majmin "$dev")) $size sparse, $iops IOPS, $mbps MiB/s each way"
  done
  cat >"$LAB_DISKS_ENV" <<EOF
LAB_DISKS="$devices"
LAB_DISK_COUNT=$n
LAB_DISK_SIZE_BYTES=$size_bytes
LAB_IOPS=$iops
LAB_MBPS=$mbps
LAB_BLKIO_CGROUP=$LAB_BLKIO_CGROUP
EOF
  LAB_UP_OK=1
  lab_say "up: cgroup $LAB_BLKIO_CGROUP; state $LAB_DISKS_ENV; run I/O with: $0 exec CMD"
}

disks_set_limits() {  # IOPS MBPS
  [[ $# -eq 2 ]] || usage
  local iops=$1 mbps=$2 dev
  lab_require_uint IOPS "$iops"
  lab_require_uint MBPS "$mbps"
  [[ -f $LAB_DISKS_ENV ]] || lab_die "lab disks are not up; run: $0 up N SIZE IOPS MBPS"
  # shellcheck source=/dev/null
  . "$LAB_DISKS_ENV"
  for dev in $LAB_DISKS; do throttle "$dev" "$iops" "$((mbps << 20))"; done
  sed -i -e "s/^LAB_IOPS=.*/LAB_IOPS=$iops/" -e "s/^LAB_MBPS=.*/LAB_MBPS=$mbps/" "$LAB_DISKS_ENV"
  lab_say "limits: $iops IOPS and $mbps MiB/s each way on $LAB_DISKS"
}

disks_exec() {
  [[ $# -ge 1 ]] || usage
  [[ -f $LAB_DISKS_ENV ]] || lab_die "lab disks are not up; run: $0 up N SIZE IOPS MBPS"
  lab_exec_in_cgroups "$LAB_BLKIO_CGROUP" "$@"
}

disks_run() {
  [[ $# -ge 6 && $5 == "--" ]] || usage
  local args=("$1" "$2" "$3" "$4")
  shift 5
  disks_up "${args[@]}"
  trap 'disks_down' EXIT
  trap 'exit 130' INT TERM
  local rc=0
  (lab_exec_in_cgroups "$LAB_BLKIO_CGROUP" "$@") || rc=$?
  exit "$rc"
}

disks_status() {
  if [[ ! -f $LAB_DISKS_ENV ]]; then
    lab_say "no lab disks up (state $LAB_DISKS_ENV absent)"
    return 0
  fi
  cat "$LAB_DISKS_ENV"
  for f in read_iops_device write_iops_device read_bps_device write_bps_device; do
    echo "blkio.throttle.$f: $(tr '\n' ' ' <"$LAB_BLKIO_CGROUP/blkio.throttle.$f")"
  done
  echo "processes in cgroup: $(wc -l <"$LAB_BLKIO_CGROUP/cgroup.procs")"
  grep -E 'Read|Write' "$LAB_BLKIO_CGROUP/blkio.throttle.io_serviced" || true
}

[[ $# -ge 1 ]] || usage
command=$1
shift
case $command in
  up) disks_up "$@" ;;
  down) disks_down && lab_say "down: lab disks removed" ;;
  set-limits) disks_set_limits "$@" ;;
  exec) disks_exec "$@" ;;
  run) disks_run "$@" ;;
  status) disks_status ;;
  *) usage ;;
esac
