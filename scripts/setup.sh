#!/usr/bin/env bash
# Installs every Debian package pgstorsim needs (when run as root on Debian 12) and
# builds it into build/. Idempotent: a second run only rebuilds what changed.
# Usage: scripts/setup.sh            (prints the path of the built binary last)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config git
  libpqxx-dev libpq-dev libcli11-dev libeigen3-dev libgtest-dev libgmock-dev
  libtomlplusplus-dev nlohmann-json3-dev liburing-dev
  postgresql postgresql-contrib
  fio util-linux e2fsprogs
  chromium imagemagick time python3
  clang-14 libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
echo "setup: built $(pwd)/build/pgstorsim"
