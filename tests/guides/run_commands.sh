#!/usr/bin/env bash
# tests/guides/run_commands.sh: runs a guide's `sh run` blocks (tests/guides/extract.sh) as a
# reader would, from a fresh directory whose build/ordo and build/ordo_tests are the
# binaries built with the guide's files (and build/ordo_gradcheck_tests, the float64 gradient
# checks, when the guide has some).
#   bash run_commands.sh <commands.sh> <ordo> <ordo_tests> [<ordo_gradcheck_tests>]
set -euo pipefail
commands=${1:?usage: run_commands.sh <commands.sh> <ordo> <ordo_tests>}
dir=$(mktemp -d /tmp/ordo_guide_XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/build"
ln -s "$2" "$dir/build/ordo"
ln -s "$3" "$dir/build/ordo_tests"
if [[ -n "${4:-}" ]]; then ln -s "$4" "$dir/build/ordo_gradcheck_tests"; fi
cd "$dir"
echo "running $commands"
bash -euxo pipefail "$commands"
