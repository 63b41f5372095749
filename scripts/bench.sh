#!/bin/sh
# `make bench`: every benchmark's figures (not part of `make check`: timings on a shared
# machine are not pass/fail material).
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/.."
for b in bench/*/run.sh; do
  echo "### $b"
  sh "$b" "$BUILD"
  echo
done
