#!/usr/bin/env bash
# PostgreSQL on an emulated disk for the pgstorsim lab. Needs `lab-disks.sh up` first.
#
#   lab-pg.sh up [--disk I] [--mem SIZE] [--shared-buffers SIZE] [--port P]
#                [--scale S] [--scenario FILE]
#       mkfs.ext4 on lab disk I (default 0), mount it, initdb a data dir owned by
#       postgres on it, start the server inside the memory cgroup (limit SIZE,
#       default 256M: page cache counts, so a database larger than SIZE keeps
#       missing) and the blkio cgroup of the disks; max_wal_size = disk size / 4
#       (64 MiB..1 GiB) so WAL and data fit; optionally pgbench -i -s S;
#       writes the matching scenario TOML (default $LAB_STATE/lab-scenario.toml,
#       removed by down: pass --scenario to keep it).
#   lab-pg.sh run [up options] -- CMD [ARGS...]
#       up, CMD with PGSTORSIM_LAB_DB=<conninfo> in the environment, then always down
#   lab-pg.sh restart
#       stop the server, empty its memory cgroup (memory.force_empty: its page cache
#       goes) and start it again in both cgroups: a "reboot" for cold runs
#   lab-pg.sh scenario FILE [--scale S]
#       write the scenario again from the current throttle (after lab-disks.sh
#       set-limits) and the server's settings
#   lab-pg.sh exec CMD [ARGS...]
#       run CMD inside the server's memory cgroup (not the blkio one), so the page
#       cache it fills (e.g. pgstorsim run --cache warm reading the relation files)
#       counts against the server's "RAM"
#   lab-pg.sh status | down
#
# The scenario's [disks] is LAB_SCENARIO_DISK (environment): "throttled" describes the
# throttle as it is (independent read and write caps, disks.type = "throttled",
# docs/scenario-format.md; the default); "ssd" is the older approximation, one
# queue shared by reads and writes at 1 s / IOPS per request.
#
# A failed or interrupted `up` tears down what it made. Prints "lab: skipped: <reason>"
# and exits 0 where the kernel does not allow the lab. Details: docs/lab.md.
set -euo pipefail
# shellcheck source=lab-common.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lab-common.sh"

PG_BIN=${PGSTORSIM_PG_BIN:-/usr/lib/postgresql/15/bin}
LAB_MOUNT=$LAB_STATE/mnt
LAB_PG_DATA=$LAB_MOUNT/pgdata
LAB_PG_SOCKET=$LAB_STATE/run  # Socket directory and server log, owned by postgres.
LAB_PG_LOG=$LAB_PG_SOCKET/postgres.log

usage() {
  sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" >&2
  exit 2
}

as_postgres() { runuser -u postgres -- "$@"; }

record() { echo "$1=\"$2\"" >>"$LAB_PG_ENV"; }

pg_down() {
  if [[ -f $LAB_PG_DATA/postmaster.pid ]]; then
    as_postgres "$PG_BIN/pg_ctl" -D "$LAB_PG_DATA" -m fast -w -t 60 stop >/dev/null 2>&1 ||
      lab_say "warning: pg_ctl stop failed"
  fi
  if mountpoint -q "$LAB_MOUNT" 2>/dev/null; then
    umount "$LAB_MOUNT" || { sleep 1 && umount "$LAB_MOUNT"; } ||
      lab_say "warning: could not unmount $LAB_MOUNT"
  fi
  rmdir "$LAB_MOUNT" 2>/dev/null || true
  rm -rf "$LAB_PG_SOCKET"
  rm -f "$LAB_STATE/initdb.log" "$LAB_STATE/pgbench-init.log" "$LAB_STATE/lab-scenario.toml"
  lab_remove_cgroup "$LAB_MEMORY_CGROUP" "$LAB_MEMORY_ROOT"
  rm -f "$LAB_PG_ENV"
}

# The lab disk's own latency, measured unthrottled (from the root blkio cgroup) on the
# mounted filesystem $1: 8 KiB random reads with O_DIRECT at queue depth 1 from a
# 64 MiB file written for the probe, then 8 KiB writes each followed by fdatasync (what
# a commit's WAL flush is), LAB_PG_PROBE_SECONDS each; mean microseconds per request =
# 1 s / achieved IOPS. The loop device's image is a file on the host's filesystem, so
# this is the host's storage (0.2-0.8 ms on the development VM), not the loop driver
# alone. Sets PROBE_READ_US, PROBE_WRITE_US and PROBE_HOW; without fio, 30 us each.
probe_latency() {  # mount_dir
  PROBE_READ_US=30 PROBE_WRITE_US=30 PROBE_HOW="not measured (fio or python3 missing): 30 us assumed"
  command -v fio >/dev/null && command -v python3 >/dev/null || return 0
  local file=$1/pgstorsim-latency-probe seconds=${LAB_PG_PROBE_SECONDS:-2} out
  out=$(
    echo "$BASHPID" >"$LAB_BLKIO_ROOT/cgroup.procs"
    dd if=/dev/urandom of="$file" bs=1M count=64 conv=fsync status=none
    for job in "--rw=randread --direct=1" "--rw=randwrite --fdatasync=1"; do
      # shellcheck disable=SC2086  # $job is two fio options.
      fio --name=probe --filename="$file" --size=64M --bs=8k $job --ioengine=psync \
        --runtime="$seconds" --time_based --output-format=json 2>/dev/null | lab_fio_rate |
        awk '{print ($1 > 0 ? int(1e6 / $1 + 0.5) : 0)}'
    done
  ) || out=""
  rm -f "$file"
  local read_us write_us
  read -r read_us write_us <<<"${out//$'\n'/ }"
  if [[ ${read_us:-0} -gt 0 && ${write_us:-0} -gt 0 ]]; then
    PROBE_READ_US=$read_us PROBE_WRITE_US=$write_us
    PROBE_HOW="measured by fio on the lab filesystem, unthrottled, queue depth 1"
  else
    PROBE_HOW="fio latency probe failed: 30 us assumed"
  fi
}

# The [disks] section. Latency = the probe's (above); blkio caps reads and writes
# independently, IOPS and MiB/s each way.
disks_section() {
  local latency_us=$((1000000 / LAB_IOPS))
  case ${LAB_SCENARIO_DISK:-throttled} in
    throttled)
      cat <<EOF
[disks]
type = "throttled"
read_iops = $LAB_IOPS
write_iops = $LAB_IOPS
read_bandwidth = "${LAB_MBPS}MiB"
write_bandwidth = "${LAB_MBPS}MiB"
read_latency = "${LAB_PG_READ_LATENCY_US:-30}us"
write_latency = "${LAB_PG_WRITE_LATENCY_US:-30}us"
capacity = "$LAB_DISK_SIZE_BYTES"
EOF
      ;;
    ssd)
      cat <<EOF
[disks]
type = "ssd"
read_latency = "${latency_us}us"
write_latency = "${latency_us}us"
channels = 1
transfer_rate = "${LAB_MBPS}MiB"
capacity = "$LAB_DISK_SIZE_BYTES"
EOF
      ;;
    *) lab_die "LAB_SCENARIO_DISK must be throttled or ssd, not '$LAB_SCENARIO_DISK'" ;;
  esac
}

# Memory in the cgroup that is neither shared_buffers nor the files' page cache.
LAB_PG_MEMORY_OVERHEAD_BYTES=$((24 << 20))

write_scenario() {  # path mem_bytes shared_buffers_bytes scale max_wal_size_bytes
  local disks
  disks=$(disks_section)
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<EOF
# Lab scenario written by scripts/lab/lab-pg.sh at $(date -u +%Y-%m-%dT%H:%M:%SZ).
# Where the numbers come from: one loop device on a sparse file (losetup --direct-io=on)
# throttled by cgroup v1 blkio to $LAB_IOPS IOPS and $LAB_MBPS MiB/s per direction, ext4,
# PostgreSQL 15 in a memory cgroup of $2 bytes (page cache included). The "disk" is a
# rate cap, not a drive: no seek; each request also takes the loop device's own
# latency, ${LAB_PG_READ_LATENCY_US:-30} us per 8 KiB read and ${LAB_PG_WRITE_LATENCY_US:-30} us per 8 KiB write + fdatasync
# (${LAB_PG_LATENCY_HOW:-assumed}).
# Buffered writeback by kernel threads is not throttled, and the server
# sets *_flush_after = 0 so that data pages are written back that way; what the
# throttle sees is reads that miss the page cache, WAL writes and checkpoint fsyncs.
[scenario]
name = "lab"
description = "pgstorsim lab: throttled loop device, $LAB_IOPS IOPS, $LAB_MBPS MiB/s"

[host]
ram = "$2"
# The page cache the database files get: the limit - shared_buffers - 24 MiB (other
# PostgreSQL shared memory ~7 MiB, backends' private memory 4-12 MiB, kernel memory
# ~9 MiB: memory.stat during a warm scale-30 run, docs/lab.md "What a warm run caches").
os_cache = "$(($2 - $3 - LAB_PG_MEMORY_OVERHEAD_BYTES))"
# The kernel's dirty thresholds are system-wide (a memory cgroup v1 does not scale
# them): /proc/vmstat nr_dirty_background_threshold and nr_dirty_threshold.
dirty_background = "$(($(awk '$1 == "nr_dirty_background_threshold" { print $2 }' /proc/vmstat) * $(getconf PAGESIZE)))"
dirty_limit = "$(($(awk '$1 == "nr_dirty_threshold" { print $2 }' /proc/vmstat) * $(getconf PAGESIZE)))"
cpu_cores = $(nproc)

[postgres]
version = "15"
shared_buffers = "$3"
max_wal_size = "$5"
checkpoint_timeout = "300s"
wal_on_data_volume = true

[filesystem]
type = "ext4"
block_size = "4KiB"
fragment_size = "4KiB"
partition_offset = "0"

[controller]
kind = "hba"
cache_size = "0"

[array]
level = "jbod"
disks = 1

$disks

[workload]
scale = $4
EOF
}

start_server() {  # mem_bytes
  lab_make_cgroup "$LAB_MEMORY_CGROUP"
  echo "$1" >"$LAB_MEMORY_CGROUP/memory.limit_in_bytes" ||
    lab_skip "kernel refused memory.limit_in_bytes=$1"
  (lab_exec_in_cgroups "$LAB_MEMORY_CGROUP $LAB_BLKIO_CGROUP" runuser -u postgres -- \
    "$PG_BIN/pg_ctl" -D "$LAB_PG_DATA" -l "$LAB_PG_LOG" -w -t 120 start >/dev/null) || {
    tail -n 20 "$LAB_PG_LOG" >&2 || true
    lab_die "PostgreSQL did not start (log above)"
  }
  local pid
  pid=$(head -1 "$LAB_PG_DATA/postmaster.pid")
  grep -q ":memory:/$LAB_NAME-pg\$" "/proc/$pid/cgroup" ||
    lab_die "postmaster $pid is not in the memory cgroup"
  grep -q ":blkio:/$LAB_NAME\$" "/proc/$pid/cgroup" ||
    lab_die "postmaster $pid is not in the blkio cgroup"
}

pg_up() {
  local disk=0 mem=256M shared=32M port=5499 scale=0 scenario=$LAB_STATE/lab-scenario.toml
  while [[ $# -gt 0 ]]; do
    [[ $# -ge 2 ]] || lab_die "option $1 needs a value"
    case $1 in
      --disk) disk=$2 ;;
      --mem) mem=$2 ;;
      --shared-buffers) shared=$2 ;;
      --port) port=$2 ;;
      --scale) scale=$2 ;;
      --scenario) scenario=$2 ;;
      *) lab_die "unknown option '$1' (see $0 without arguments)" ;;
    esac
    shift 2
  done
  local mem_bytes shared_bytes dev
  mem_bytes=$(lab_bytes "$mem")
  shared_bytes=$(lab_bytes "$shared")
  lab_require_uint --port "$port"
  [[ $scale =~ ^[0-9]+$ ]] || lab_die "--scale must be an integer, got '$scale'"
  ((shared_bytes + LAB_PG_MEMORY_OVERHEAD_BYTES < mem_bytes)) ||
    lab_die "--shared-buffers must be smaller than --mem - $((LAB_PG_MEMORY_OVERHEAD_BYTES >> 20)) MiB"
  lab_require_root
  lab_require_blkio
  lab_require_memory_cgroup
  [[ -x $PG_BIN/pg_ctl && -x $PG_BIN/initdb ]] || lab_skip "PostgreSQL 15 not found in $PG_BIN"
  id postgres >/dev/null 2>&1 || lab_skip "no postgres user"
  command -v mkfs.ext4 >/dev/null || lab_skip "mkfs.ext4 not installed (e2fsprogs)"
  [[ -f $LAB_DISKS_ENV ]] || lab_die "no lab disks: run scripts/lab/lab-disks.sh up N SIZE IOPS MBPS"
  [[ ! -f $LAB_PG_ENV ]] || lab_die "lab PostgreSQL already up ($LAB_PG_ENV); run: $0 down"
  # shellcheck source=/dev/null
  . "$LAB_DISKS_ENV"
  read -r -a devices <<<"$LAB_DISKS"
  [[ $disk =~ ^[0-9]+$ && $disk -lt ${#devices[@]} ]] ||
    lab_die "--disk $disk: the lab has disks 0..$((${#devices[@]} - 1))"
  dev=${devices[$disk]}
  # WAL must fit the disk beside the data: max_wal_size = SIZE/4, within 64 MiB..1 GiB.
  local wal_bytes=$((LAB_DISK_SIZE_BYTES / 4))
  if ((wal_bytes > 1 << 30)); then wal_bytes=$((1 << 30)); fi
  if ((wal_bytes < 64 << 20)); then wal_bytes=$((64 << 20)); fi
  LAB_UP_OK=0
  trap 'if [[ $LAB_UP_OK -eq 0 ]]; then lab_say "up failed or interrupted: tearing down"; pg_down; fi' EXIT
  trap 'exit 130' INT TERM
  : >"$LAB_PG_ENV"
  lab_say "mkfs.ext4 on $dev (a lab loop device; its image is $LAB_STATE/disk$disk.img)"
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev"
  mkdir -p "$LAB_MOUNT" "$LAB_PG_SOCKET"
  mount -o noatime "$dev" "$LAB_MOUNT"
  record LAB_PG_MOUNT "$LAB_MOUNT"
  probe_latency "$LAB_MOUNT"
  LAB_PG_READ_LATENCY_US=$PROBE_READ_US LAB_PG_WRITE_LATENCY_US=$PROBE_WRITE_US
  LAB_PG_LATENCY_HOW=$PROBE_HOW
  record LAB_PG_READ_LATENCY_US "$PROBE_READ_US"
  record LAB_PG_WRITE_LATENCY_US "$PROBE_WRITE_US"
  record LAB_PG_LATENCY_HOW "$PROBE_HOW"
  lab_say "lab disk latency: $PROBE_READ_US us per read, $PROBE_WRITE_US us per write + fdatasync ($PROBE_HOW)"
  mkdir "$LAB_PG_DATA"
  chown postgres: "$LAB_PG_DATA" "$LAB_PG_SOCKET"
  chmod 700 "$LAB_PG_DATA"
  as_postgres "$PG_BIN/initdb" -D "$LAB_PG_DATA" -A trust -U postgres -E UTF8 --no-instructions \
    >"$LAB_STATE/initdb.log" 2>&1 || {
    tail -n 20 "$LAB_STATE/initdb.log" >&2
    lab_die "initdb failed (log above)"
  }
  cat >>"$LAB_PG_DATA/postgresql.conf" <<EOF
# pgstorsim lab
port = $port
listen_addresses = ''
unix_socket_directories = '$LAB_PG_SOCKET'
shared_buffers = $((shared_bytes / 8192))
max_wal_size = $((wal_bytes >> 20))MB
# No sync_file_range() hints: data pages are written back by the kernel's flusher
# threads, which cgroup v1 blkio does not throttle, so the throttled writes are exactly
# the WAL (write + fdatasync at commit) and the checkpoint's closing fsyncs (docs/lab.md).
bgwriter_flush_after = 0
checkpoint_flush_after = 0
backend_flush_after = 0
EOF
  start_server "$mem_bytes"
  local conninfo="host=$LAB_PG_SOCKET port=$port user=postgres dbname=postgres"
  record LAB_PG_DEVICE "$dev"
  record LAB_PG_DATA "$LAB_PG_DATA"
  record LAB_PG_MEM_BYTES "$mem_bytes"
  record LAB_PG_SHARED_BYTES "$shared_bytes"
  record LAB_PG_WAL_BYTES "$wal_bytes"
  record LAB_PG_CONNINFO "$conninfo"
  if ((scale > 0)); then
    lab_say "pgbench -i -s $scale (server-side I/O is throttled: this can take a while)"
    "$PG_BIN/pgbench" -i -q -s "$scale" -h "$LAB_PG_SOCKET" -p "$port" -U postgres postgres \
      >"$LAB_STATE/pgbench-init.log" 2>&1 || {
      tail -n 20 "$LAB_STATE/pgbench-init.log" >&2
      lab_die "pgbench -i failed (log above)"
    }
  fi
  write_scenario "$scenario" "$mem_bytes" "$shared_bytes" "$((scale > 0 ? scale : 1))" "$wal_bytes"
  record LAB_PG_SCENARIO "$scenario"
  LAB_UP_OK=1
  lab_say "PostgreSQL up on $dev: $conninfo (memory limit $mem, shared_buffers $shared)"
  lab_say "scenario: $scenario"
}

pg_run() {
  local opts=()
  while [[ $# -gt 0 && $1 != "--" ]]; do
    opts+=("$1")
    shift
  done
  [[ $# -ge 2 ]] || usage
  shift
  pg_up "${opts[@]}"
  trap 'pg_down' EXIT
  trap 'exit 130' INT TERM
  local rc=0
  # shellcheck source=/dev/null
  PGSTORSIM_LAB_DB=$(. "$LAB_PG_ENV" && echo "$LAB_PG_CONNINFO") "$@" || rc=$?
  exit "$rc"
}

pg_env() {  # Loads disks.env and pg.env or dies.
  [[ -f $LAB_PG_ENV && -f $LAB_DISKS_ENV ]] || lab_die "lab PostgreSQL is not up; run: $0 up"
  # shellcheck source=/dev/null
  . "$LAB_DISKS_ENV"
  # shellcheck source=/dev/null
  . "$LAB_PG_ENV"
}

pg_restart() {
  pg_env
  as_postgres "$PG_BIN/pg_ctl" -D "$LAB_PG_DATA" -m fast -w -t 120 stop >/dev/null ||
    lab_die "pg_ctl stop failed"
  echo 0 >"$LAB_MEMORY_CGROUP/memory.force_empty" ||
    lab_say "warning: memory.force_empty refused; page cache may survive the restart"
  start_server "$LAB_PG_MEM_BYTES"
  lab_say "restarted; memory cgroup holds $(cat "$LAB_MEMORY_CGROUP/memory.usage_in_bytes") bytes"
}

pg_scenario() {  # FILE [--scale S]
  [[ $# -eq 1 || ($# -eq 3 && $2 == "--scale") ]] || usage
  local scale=${3:-1}
  [[ $scale =~ ^[0-9]+$ && $scale -gt 0 ]] || lab_die "--scale must be a positive integer"
  pg_env
  write_scenario "$1" "$LAB_PG_MEM_BYTES" "$LAB_PG_SHARED_BYTES" "$scale" "$LAB_PG_WAL_BYTES"
  lab_say "scenario: $1 ($LAB_IOPS IOPS, $LAB_MBPS MiB/s, scale $scale)"
}

pg_exec() {
  [[ $# -ge 1 ]] || usage
  pg_env
  lab_exec_in_cgroups "$LAB_MEMORY_CGROUP" "$@"
}

pg_status() {
  if [[ ! -f $LAB_PG_ENV ]]; then
    lab_say "no lab PostgreSQL up (state $LAB_PG_ENV absent)"
    return 0
  fi
  cat "$LAB_PG_ENV"
  echo "memory.usage_in_bytes: $(cat "$LAB_MEMORY_CGROUP/memory.usage_in_bytes")"
  echo "memory.max_usage_in_bytes: $(cat "$LAB_MEMORY_CGROUP/memory.max_usage_in_bytes")"
  grep -E '^(cache|rss) ' "$LAB_MEMORY_CGROUP/memory.stat" || true
}

[[ $# -ge 1 ]] || usage
command=$1
shift
case $command in
  up) pg_up "$@" ;;
  run) pg_run "$@" ;;
  down) pg_down && lab_say "down: lab PostgreSQL stopped and unmounted" ;;
  restart) pg_restart ;;
  scenario) pg_scenario "$@" ;;
  exec) pg_exec "$@" ;;
  status) pg_status ;;
  *) usage ;;
esac
