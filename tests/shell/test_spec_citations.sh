#!/usr/bin/env bash
# tests/shell/test_spec_citations.sh: every "docs/spec.md §N" the repository cites names a
# section that exists, and each section's file list and the files' own citations agree.
#   1. Every "spec.md §N" in code, tests, scripts and pages, and every bare "§N" inside
#      docs/spec.md, is the number of a heading of docs/spec.md.
#   2. Every file a heading lists in its parentheses ("### 2.10 `fire`
#      (`layers/posenc/fire.cpp`)") exists, and if that file cites the specification at all,
#      it cites the section that lists it: a file that describes itself by the spec points
#      to its own section.
# Usage: bash test_spec_citations.sh [<ordo> <ordo_tests>] (the binaries are not used).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
fail=0
problem() { echo "FAIL: $*"; fail=1; }

spec=docs/spec.md
# "2.10" for "### 2.10 ..." and "2" for "## 2. ...": the numbers that exist.
mapfile -t numbers < <(sed -nE 's/^#{2,4} ([0-9]+(\.[0-9]+)*)\.? .*/\1/p' "$spec")
[[ ${#numbers[@]} -ge 40 ]] || problem "read only ${#numbers[@]} numbered headings from $spec"
declare -A exists=()
for n in "${numbers[@]}"; do exists[$n]=1; done

# ---- 1. every citation names a heading ----
files=$(git ls-files -- '*.h' '*.cpp' '*.sh' '*.md' '*.mjs' '*.html' '*.txt' 'CMakeLists.txt' 'run' '.ci/*' |
          grep -v '^docs/results/' || true)
checked=0
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  n=$(sed -E 's/.*§//' <<<"${rest#*:}")
  n=${n%.}  # "§2." at the end of a sentence
  checked=$((checked + 1))
  [[ -n ${exists[$n]:-} ]] || problem "$file:$line cites docs/spec.md §$n, which has no such heading"
done < <(grep -noE 'spec\.md §[0-9]+(\.[0-9]+)*' $files 2>/dev/null || true)
while IFS= read -r hit; do
  line=${hit%%:*}
  n=${hit#*:§}
  n=${n%.}
  checked=$((checked + 1))
  [[ -n ${exists[$n]:-} ]] || problem "$spec:$line refers to §$n, which has no such heading"
done < <(grep -noE '§[0-9]+(\.[0-9]+)*' "$spec" || true)
[[ $checked -ge 100 ]] || problem "found only $checked citations: the patterns no longer match"

# ---- 2. a section's files cite that section ----
while IFS= read -r heading; do
  n=$(sed -E 's/^#{2,4} ([0-9]+(\.[0-9]+)*).*/\1/' <<<"$heading")
  listed=$(grep -oE '\(([^()]*)\)$' <<<"$heading" | grep -oE '`[a-z_0-9./]+/[a-z_0-9.]+`' | tr -d '`' || true)
  for f in $listed; do
    [[ -f $f ]] || { problem "$spec §$n lists $f, which does not exist"; continue; }
    cited=$(grep -oE 'spec\.md §[0-9]+(\.[0-9]+)*' "$f" | sed -E 's/.*§//' | sort -u || true)
    [[ -z $cited ]] && continue
    grep -qxF "$n" <<<"$cited" || problem "$f is listed under $spec §$n but cites §$(paste -sd, <<<"$cited")"
  done
done < <(grep -E '^#{2,4} [0-9]' "$spec")

if [[ $fail -ne 0 ]]; then exit 1; fi
echo "spec citations: $checked checked, every one names a heading; every listed file cites its own section"
