#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs packages, builds,
# starts a throw-away PostgreSQL for the `pg` label, and runs every ctest label.
# Tests whose resource the kernel does not grant (loop devices, cgroups, a browser)
# skip with a message saying why. Then scripts/sanitize.sh: the unit tests under ASan +
# UBSan and every fuzz target for 30 s (SANITIZE=0 skips it).
# Usage: scripts/test.sh [extra ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
scripts/setup.sh
PGSTORSIM_TEST_DB=$("$top/scripts/pg-test-cluster.sh" start)
export PGSTORSIM_TEST_DB
trap '"$top/scripts/pg-test-cluster.sh" stop || true' EXIT
echo "test: PostgreSQL for label pg: $PGSTORSIM_TEST_DB"
(cd build && ctest --output-on-failure -j "$(nproc)" "$@")
if [ "${SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh
fi
