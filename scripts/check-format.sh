#!/bin/sh
# Checks (or with --fix, applies) the checked-in .clang-format style on all C sources.
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find src include tests bench apps -name '*.[ch]')
[ -n "$files" ] || exit 0
if [ "${1:-}" = "--fix" ]; then
  # shellcheck disable=SC2086
  clang-format -i $files
  exit 0
fi
bad=""
for f in $files; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad="$bad $f"; fi
done
if [ -n "$bad" ]; then
  echo "clang-format: these files differ from .clang-format (run 'make format'):$bad" >&2
  exit 1
fi
echo "clang-format: ok"
