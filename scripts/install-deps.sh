#!/bin/sh
# Installs the Debian packages augur needs to build, test and demo, if any is
# missing. Safe to run again: does nothing when everything is present.
# Usage: scripts/install-deps.sh [--print]   (--print: list missing, install nothing)
set -eu

PKGS="build-essential cmake pkg-config make gfortran clang libclang-rt-14-dev clang-format
libomp-dev libhwloc-dev
mpich libmpich-dev openmpi-bin libopenmpi-dev
libzstd-dev libxxhash-dev libdw-dev libelf-dev libjansson-dev libcmocka-dev
libpapi-dev libinih-dev libssl-dev libsqlite3-dev python3 file procps time
python3-cffi python3-numpy python3-pandas python3-pytest
libotf2-trace-dev otf2-tools python3-otf2 libsimgrid-dev chromium fonts-dejavu-core
libmicrohttpd-dev libslurm-dev slurmctld slurmd munge libmunge-dev
man-db groff-base dpkg-dev lmod
postgresql libpq-dev"

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi
if [ "${1:-}" = "--print" ]; then
  echo "missing:$missing"
  exit 0
fi

echo "augur: installing missing Debian packages:$missing"
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "augur: need root (or sudo) to install:$missing" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
echo "augur: packages installed"
