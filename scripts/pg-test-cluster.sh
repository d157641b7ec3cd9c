#!/usr/bin/env bash
# Starts (or stops) a throw-away PostgreSQL cluster for the `pg` test label, owned by
# an unprivileged user (initdb and postgres refuse root). Prints the conninfo to use.
# Access: trust on the unix socket (the printed conninfo), scram-sha-256 on TCP
# 127.0.0.1 at the same port (for tests of password handling). `start` rewrites
# pg_hba.conf and the listen address on every call and reloads a running server, so an
# existing data directory gets them too (a listen address change needs a restart).
# Usage: scripts/pg-test-cluster.sh start|stop|conninfo
set -euo pipefail
DIR=${PGSTORSIM_TEST_PGDATA:-/tmp/pgstorsim-test-pg}
PORT=${PGSTORSIM_TEST_PGPORT:-55432}
RUN_USER=postgres
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -n "$BIN" ] || { echo "pg-test-cluster: no PostgreSQL server binaries found" >&2; exit 1; }

as_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$RUN_USER" -- "$@"; else "$@"; fi
}

conninfo() { echo "host=$DIR port=$PORT dbname=postgres user=$(as_user id -un)"; }

# pg_hba.conf and listen_addresses as described above, rewritten on every start.
write_access() {
  as_user tee "$DIR/data/pg_hba.conf" >/dev/null <<'HBA'
# Written by scripts/pg-test-cluster.sh start (rewritten on every start).
local all all trust
host  all all 127.0.0.1/32 scram-sha-256
HBA
  as_user tee "$DIR/data/pgstorsim-test.conf" >/dev/null <<'CONF'
# Written by scripts/pg-test-cluster.sh start.
listen_addresses = '127.0.0.1'
CONF
  grep -q "^include_if_exists 'pgstorsim-test.conf'" "$DIR/data/postgresql.conf" ||
    echo "include_if_exists 'pgstorsim-test.conf'" | as_user tee -a "$DIR/data/postgresql.conf" >/dev/null
}

case "${1:-}" in
  start)
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
      mkdir -p "$DIR"
      [ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$DIR"
      as_user "$BIN/initdb" -D "$DIR/data" -A trust -U "$(as_user id -un)" >/dev/null
    fi
    write_access
    if ! as_user "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
      as_user "$BIN/pg_ctl" -D "$DIR/data" -w -l "$DIR/log" \
        -o "-p $PORT -k $DIR -c fsync=off -c shared_buffers=128MB" start >/dev/null
    else
      as_user "$BIN/pg_ctl" -D "$DIR/data" reload >/dev/null
    fi
    conninfo
    ;;
  stop)
    as_user "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null 2>&1 || true
    ;;
  conninfo) conninfo ;;
  *) echo "usage: $0 start|stop|conninfo" >&2; exit 2 ;;
esac
