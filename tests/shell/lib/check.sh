# tests/shell/lib/check.sh: the pass/fail bookkeeping of the shell tests; sourced (a folder of
# its own, so that ctest's tests/shell/*.sh does not take it for a test).
#
#   check "what must hold" command args...   # counts a pass, or prints "FAIL: what must hold"
#   finish                                   # prints "N passed, M failed"; fails if any did
passed=0
failed=0
check() {
  local what=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; failed=$((failed + 1)); fi
}
finish() {
  echo "$passed passed, $failed failed"
  [[ $failed -eq 0 ]]
}
