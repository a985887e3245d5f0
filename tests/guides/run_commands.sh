#!/usr/bin/env bash
# tests/guides/run_commands.sh: runs a guide's `sh run` blocks (tests/guides/extract.sh) as a
# reader would, from a fresh directory whose build/ holds the binaries built with the
# guide's files, under the names the page uses (build/ordo, build/ordo_tests, ...).
#   bash run_commands.sh <commands.sh> [name=path ...]
set -euo pipefail
commands=${1:?usage: run_commands.sh <commands.sh> [name=path ...]}
shift
dir=$(mktemp -d /tmp/ordo_guide_XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/build"
for binary in "$@"; do
  ln -s "${binary#*=}" "$dir/build/${binary%%=*}"
done
cd "$dir"
echo "running $commands"
bash -euxo pipefail "$commands"
