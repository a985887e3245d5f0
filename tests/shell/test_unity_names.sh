#!/usr/bin/env bash
# tests/shell/test_unity_names.sh: every library still compiles as one unit.
# The libraries build in unity batches (CMakeLists.txt, ORDO_UNITY_BUILD): several sources per
# compile, so two sources of one library that define the same name in their anonymous
# namespaces fail to build once they share a batch. Which sources share one depends on how
# many files a folder holds, so a clash can lie dormant until an unrelated file is added. This
# test puts all of a library's batched sources into one unit and compiles it (-fsyntax-only,
# the batches' own flags from compile_commands.json): a dormant clash fails here, by name.
# Then it plants one (a second definition of a helper) and requires the compiler to see it.
# Exits 77 (skipped) in a build without unity batches.
# Usage: bash test_unity_names.sh <ordo> (compile_commands.json beside it).
set -euo pipefail
build=$(cd "$(dirname "$1")" && pwd)
commands=$build/compile_commands.json
[[ -f $commands ]] || { echo "FAIL: no $commands (CMAKE_EXPORT_COMPILE_COMMANDS)"; exit 1; }
shopt -s nullglob
batches=("$build"/CMakeFiles/*/Unity/unity_0_cxx.cxx)
[[ ${#batches[@]} -gt 0 ]] || { echo "SKIP: no unity batches in $build (ORDO_UNITY_BUILD=OFF)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# compile_unit <library's first batch> <unit>: the batch's command on the unit, syntax only.
source "$(dirname "$0")/lib/compile_command.sh"
compile_unit() {
  local line
  line=$(compile_command "$build" "$1" "$2")
  [[ -n $line ]] || { echo "FAIL: $1 is not in $commands"; return 1; }
  (cd "$build" && eval "$line -fsyntax-only") 2>&1
}

fail=0
checked=()
for first in "${batches[@]}"; do
  dir=$(dirname "$first")
  library=$(basename "$(dirname "$dir")" .dir)
  cat "$dir"/unity_*_cxx.cxx | grep '^#include' >"$work/$library.cpp"
  if ! out=$(compile_unit "$first" "$work/$library.cpp"); then
    echo "FAIL: $library's sources do not compile as one unit (a name defined twice in anonymous namespaces?):"
    echo "$out" | grep -E 'error|previously' | head -10
    fail=1
  fi
  checked+=("$library ($(grep -c . "$work/$library.cpp") sources)")
done
echo "checked: ${checked[*]}"

# A planted clash: the study library's sources with one of them defined a second time under
# another file name (its anonymous-namespace helpers then clash).
first=$build/CMakeFiles/ordo_study.dir/Unity/unity_0_cxx.cxx
if [[ -f $first ]]; then
  source=$(grep -m1 -o '"/.*\.cpp"' "$first" | tr -d '"')
  cp "$source" "$work/planted_copy.cpp"
  { cat "$work/ordo_study.cpp"; echo "#include \"$work/planted_copy.cpp\""; } >"$work/planted.cpp"
  if compile_unit "$first" "$work/planted.cpp" >"$work/planted.out"; then
    echo "FAIL: a source defined twice in one unit compiled"
    fail=1
  elif ! grep -q "redefinition" "$work/planted.out"; then
    echo "FAIL: the planted clash failed for another reason:"
    head -5 "$work/planted.out"
    fail=1
  fi
fi
[[ $fail -eq 0 ]] && echo "PASS: every library compiles as one unit; a planted clash is caught"
exit $fail
