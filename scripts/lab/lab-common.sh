# shellcheck shell=bash disable=SC2034  # Variables are used by the scripts that source this.
# Sourced by the lab scripts (not executable on its own): names, paths, messages and
# the capability checks shared by lab-disks.sh and lab-pg.sh. See docs/lab.md.
#
# Environment:
#   PGSTORSIM_LAB_NAME   cgroup and state name (default pgstorsim-lab); tests set their own
#                        so they never touch a lab someone else brought up.
#   PGSTORSIM_LAB_STATE  state directory (default /var/tmp/$PGSTORSIM_LAB_NAME): sparse
#                        disk images, disks.env, pg.env, the mount point.

LAB_NAME=${PGSTORSIM_LAB_NAME:-pgstorsim-lab}
LAB_STATE=${PGSTORSIM_LAB_STATE:-/var/tmp/$LAB_NAME}
LAB_BLKIO_ROOT=/sys/fs/cgroup/blkio
LAB_MEMORY_ROOT=/sys/fs/cgroup/memory
LAB_BLKIO_CGROUP=$LAB_BLKIO_ROOT/$LAB_NAME
LAB_MEMORY_CGROUP=$LAB_MEMORY_ROOT/$LAB_NAME-pg
LAB_DISKS_ENV=$LAB_STATE/disks.env
LAB_PG_ENV=$LAB_STATE/pg.env

lab_say() { echo "lab: $*"; }
lab_die() {
  echo "lab: error: $*" >&2
  exit 1
}
# The kernel or machine does not allow the lab: not a failure of the caller.
lab_skip() {
  echo "lab: skipped: $*"
  exit 0
}

lab_require_root() {
  [[ $(id -u) -eq 0 ]] || lab_skip "needs root (loop devices and cgroups)"
}

lab_require_blkio() {
  [[ -w $LAB_BLKIO_ROOT/cgroup.procs ]] ||
    lab_skip "no writable cgroup v1 blkio hierarchy at $LAB_BLKIO_ROOT"
  [[ -e $LAB_BLKIO_ROOT/blkio.throttle.read_iops_device ]] ||
    lab_skip "cgroup v1 blkio has no throttle files (kernel without CONFIG_BLK_DEV_THROTTLING)"
}

lab_require_memory_cgroup() {
  [[ -e $LAB_MEMORY_ROOT/memory.limit_in_bytes ]] ||
    lab_skip "no cgroup v1 memory hierarchy at $LAB_MEMORY_ROOT"
}

lab_require_loop() {
  command -v losetup >/dev/null || lab_skip "losetup not installed (util-linux)"
  [[ -e /dev/loop-control ]] || modprobe loop 2>/dev/null || true
  [[ -e /dev/loop-control ]] || lab_skip "no /dev/loop-control (loop driver unavailable)"
}

lab_require_uint() {  # name value
  [[ $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || lab_die "$1 must be a positive integer, got '$2'"
}

# Bytes from "256M", "1G", "512k", "1048576" (binary suffixes, as common/units.h).
lab_bytes() {
  local text=$1 number suffix
  [[ $text =~ ^([0-9]+)([kKmMgGtT]?)(i?[bB])?$ ]] || lab_die "invalid size '$text'"
  number=${BASH_REMATCH[1]}
  suffix=${BASH_REMATCH[2]}
  case $suffix in
    k | K) echo $((number << 10)) ;;
    m | M) echo $((number << 20)) ;;
    g | G) echo $((number << 30)) ;;
    t | T) echo $((number << 40)) ;;
    *) echo "$number" ;;
  esac
}

# "major:minor" of a block device node.
lab_majmin() {
  cat "/sys/class/block/$(basename "$1")/dev"
}

# Creates cgroup directory $1 (cgroup v1: mkdir makes the group); skips the lab when
# the kernel refuses.
lab_make_cgroup() {
  mkdir -p "$1" 2>/dev/null || lab_skip "cannot create cgroup $1"
}

# Moves the calling shell ($BASHPID: also right in a subshell) into each cgroup
# directory of $1 (space-separated) and execs the command $2...: the command's I/O,
# memory and children are accounted there. Dies naming the cgroup that refused.
lab_exec_in_cgroups() {
  local cg
  for cg in $1; do
    echo "$BASHPID" >"$cg/cgroup.procs" 2>/dev/null || lab_die "cannot join cgroup $cg"
  done
  shift
  exec "$@"
}

# Moves every process of cgroup directory $1 to the hierarchy root $2, then removes $1.
lab_remove_cgroup() {
  local cg=$1 root=$2 pid
  [[ -d $cg ]] || return 0
  while read -r pid; do
    if [[ -n $pid ]]; then echo "$pid" >"$root/cgroup.procs" 2>/dev/null || true; fi
  done <"$cg/cgroup.procs"
  rmdir "$cg" 2>/dev/null || lab_say "warning: could not remove cgroup $cg (still busy?)"
}

# Reads one fio job's JSON output (--output-format=json) on stdin and prints
# "IOPS BYTES_PER_S" of the direction it did (reads if it read anything, else writes).
lab_fio_rate() {
  python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
side = j["read"] if j["read"]["io_bytes"] else j["write"]
print(side["iops"], side["bw_bytes"])'
}

# Prints the [calibration] section (and its subtables) of scenario file $1, to append to
# another scenario.
lab_calibration_section() {
  sed -n '/^\[calibration/,$p' "$1"
}
