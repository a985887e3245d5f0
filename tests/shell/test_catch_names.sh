#!/usr/bin/env bash
# tests/shell/test_catch_names.sh: every Catch2 test name survives CMake's test discovery.
# catch_discover_tests passes each name through a CMake list, where ';' splits it in two
# (one test became "add_grad stores ..." and " a parameter's is always added", both failing
# to match anything) and an unbalanced '[' is read as a tag. So a TEST_CASE name may hold no
# ';', and its brackets must pair ("x[r, idx[r, k]]" is fine). Nor may it start with '-': the
# test binary then reads it as an option ("--layer-encodings E,E ..." failed as an unknown one).
# Usage: bash test_catch_names.sh [<ordo> <ordo_tests>] (the binaries are not used).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
fail=0
checked=0
while IFS= read -r line; do
  file=${line%%:*}
  name=$(sed -nE 's/.*TEST_CASE\("(([^"\\]|\\.)*)".*/\1/p' <<<"${line#*:}")
  [[ -n $name ]] || continue
  checked=$((checked + 1))
  if [[ $name == *";"* ]]; then
    echo "FAIL: $file: test name holds ';': $name"
    fail=1
  fi
  if [[ $name == -* ]]; then
    echo "FAIL: $file: test name starts with '-' (read as an option): $name"
    fail=1
  fi
  depth=0
  for ((i = 0; i < ${#name}; i++)); do
    case ${name:i:1} in
      "[") depth=$((depth + 1)) ;;
      "]") depth=$((depth - 1)); [[ $depth -ge 0 ]] || break ;;
    esac
  done
  if [[ $depth -ne 0 ]]; then
    echo "FAIL: $file: test name's brackets do not pair: $name"
    fail=1
  fi
done < <(git ls-files -- 'tests/*.cpp' 'docs/guides/*.md' | xargs grep -H 'TEST_CASE("')
[[ $checked -ge 100 ]] || { echo "FAIL: read only $checked test names"; fail=1; }
[[ $fail -eq 0 ]] && echo "catch_names: $checked test names, none with ';', an unpaired bracket or a leading '-'"
exit $fail
