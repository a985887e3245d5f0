#!/usr/bin/env bash
# tests/shell/test_thread_safety.sh: the locking rules written in the code hold.
# Shared state is declared with the mutex that guards it (core/mutex.h: GUARDED_BY, REQUIRES,
# EXCLUDES, LevelDB's idiom). GCC ignores those words; Clang's thread-safety analysis checks
# them. This test compiles every source file that uses them with clang++ -Wthread-safety
# (-fsyntax-only, the build's own flags from compile_commands.json) and fails on any warning:
# a guarded member read or written without its mutex, a REQUIRES function called without it.
# Then it plants one such fault and requires the analysis to see it (so the check cannot
# pass by checking nothing). Exits 77 (skipped) where no clang++ is installed (./run test
# installs it).
# Usage: bash test_thread_safety.sh <ordo> [<ordo_tests>] (compile_commands.json beside <ordo>).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$(dirname "$1")" && pwd)
cd "$root"
clang=$(command -v clang++ || true)
if [[ -z $clang ]]; then
  echo "SKIP: no clang++ on this machine (apt-get install clang): the thread-safety annotations are not checked"
  exit 77
fi
commands=$build/compile_commands.json
[[ -f $commands ]] || { echo "FAIL: no $commands (CMAKE_EXPORT_COMPILE_COMMANDS)"; exit 1; }

# Headers that use the annotations, then every source file that includes one of them.
mapfile -t headers < <(git grep -l -E 'GUARDED_BY|REQUIRES\(|EXCLUDES\(' -- '*.h' | grep -v '^core/mutex.h$')
pattern='#include "core/mutex.h"'
for h in "${headers[@]}"; do pattern+="|#include \"$h\""; done
mapfile -t sources < <(git grep -l -E "$pattern" -- '*.cpp')
[[ ${#sources[@]} -ge 2 ]] || { echo "FAIL: found ${#sources[@]} source files using core/mutex.h"; exit 1; }

# The build's compile command line for one source (tests/shell/lib/compile_command.sh).
source "$root/tests/shell/lib/compile_command.sh"

# The build's command for one file, compiled by clang++ for the analysis only.
check() {  # <source as given to the compiler> <path to report>
  local line
  line=$(compile_command "$build" "$1")
  [[ -n $line ]] || { echo "FAIL: $2 is not in $commands"; return 1; }
  # Drop the compiler; -o and -c stay harmless under -fsyntax-only. -falign-loops is GCC's.
  local args=${line#* }
  args=${args//-falign-loops=64/}
  (cd "$build" && eval "\"$clang\" $args -fsyntax-only -Wno-everything -Wthread-safety -Werror=thread-safety") 2>&1
}

fail=0
for f in "${sources[@]}"; do
  if ! out=$(check "$root/$f" "$f"); then
    echo "FAIL: $f"
    echo "$out" | head -20
    fail=1
  fi
done
echo "checked ${#sources[@]} files: ${sources[*]}"

# A planted fault: a guarded member of the study written without its mutex.
planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
sed 's|^void Session::worker(int id) {|void Session::worker(int id) {\n  stopping_ = true;|' study/session.cpp >"$planted/session.cpp"
grep -q '^  stopping_ = true;$' "$planted/session.cpp" || { echo "FAIL: could not plant the fault in study/session.cpp"; exit 1; }
line=$(compile_command "$build" "$root/study/session.cpp" "$planted/session.cpp")
args=${line#* }
args=${args//-falign-loops=64/}
if (cd "$build" && eval "\"$clang\" $args -I$root -fsyntax-only -Wno-everything -Wthread-safety -Werror=thread-safety") \
    >"$planted/out" 2>&1; then
  echo "FAIL: the analysis passed study/session.cpp with stopping_ written outside mu_"
  fail=1
elif ! grep -q "requires holding mutex 'mu_'" "$planted/out"; then
  echo "FAIL: the planted fault failed for another reason:"
  head -5 "$planted/out"
  fail=1
fi
[[ $fail -eq 0 ]] && echo "PASS: every annotated lock holds in ${#sources[@]} files; a planted unguarded write is caught"
exit $fail
