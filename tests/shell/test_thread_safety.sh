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

# The build's compile command line for one source (its compile_commands.json entry). In a unity
# build (CMakeLists.txt, ORDO_UNITY_BUILD) the source is compiled inside a batch: the batch's
# command then, with the source in the batch's place.
command_line() {  # <source as given to the compiler>
  local line batch
  line=$(grep -F -B1 "\"file\": \"$1\"" "$commands" | head -1)
  if [[ $line != *'"command"'* ]]; then
    batch=$(grep -l -F "#include \"$1\"" "$build"/CMakeFiles/*/Unity/*.cxx 2>/dev/null | head -1 || true)
    [[ -n $batch ]] || return 0
    line=$(grep -F -B1 "\"file\": \"$batch\"" "$commands" | head -1)
    line=${line//$batch/$1}
  fi
  echo "$line"
}

# The build's command for one file, compiled by clang++ for the analysis only.
check() {  # <source as given to the compiler> <path to report>
  local line
  line=$(command_line "$1")
  [[ $line == *'"command"'* ]] || { echo "FAIL: $2 is not in $commands"; return 1; }
  line=${line#*\"command\": \"}
  line=${line%\",}
  line=${line//\\\"/\"}
  line=${line//\\\\/\\}
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
line=$(command_line "$root/study/session.cpp")
line=${line#*\"command\": \"}
line=${line%\",}
line=${line//\\\"/\"}
args=${line#* }
args=${args//$root\/study\/session.cpp/$planted\/session.cpp}
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
