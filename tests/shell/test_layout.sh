#!/usr/bin/env bash
# tests/shell/test_layout.sh: the repository keeps the shape the docs promise.
#   1. The include graph has no arrow upward: core <- (cluster, layers) <- data <- train <-
#      io <- report <- study <- experiments (train may include data and cluster; data may
#      include neither train nor cluster; layers may not include cluster).
#   2. No source file outside layers/posenc/ names a registered encoding, and none outside
#      data/ names a registered task, as a string literal (tests and docs aside).
#   3. Every repository path a comment, a test or a page cites exists, and every relative
#      link in a Markdown page resolves.
# Usage: bash test_layout.sh [<ordo> <ordo_tests>] (the binaries are not used).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
fail=0
problem() { echo "FAIL: $*"; fail=1; }

# ---- 1. include graph ----
declare -A allowed=(
  [core]="core"
  [cluster]="core cluster"
  [layers]="core layers"
  [data]="core layers data"
  [train]="core cluster layers data train"
  [io]="core cluster layers data train io"
  [report]="core cluster layers data train io report"
  [study]="core cluster layers data train io report study"
  [experiments]="core cluster layers data train io report study experiments"
)
for folder in "${!allowed[@]}"; do
  while IFS=: read -r file line include; do
    target=""; [[ $include =~ \#include\ \"([a-z_]+)/ ]] && target=${BASH_REMATCH[1]}  # no process per line
    [[ " ${allowed[$folder]} " == *" $target "* ]] || problem "$file:$line includes $target/ (above $folder/)"
  done < <(grep -rnE '^#include "[a-z_]+/' "$folder" --include='*.h' --include='*.cpp' || true)
done

# ---- 2. registered names stay in their folders ----
encodings=$(sed -nE 's/^ *ORDO_ENCODING\(([a-z0-9_]+)\).*/\1/p' layers/posenc/registry.cpp)
tasks=$(sed -nE 's/^ *ORDO_TASK\(([a-z0-9_]+)\).*/\1/p' data/registry.cpp)
[[ $(wc -w <<<"$encodings") -ge 9 && $(wc -w <<<"$tasks") -ge 3 ]] || problem "could not read the registries"
# String literals of code lines (comment text dropped), as file:line:code.
code=$(grep -rnE '"[a-z0-9_]+"' core cluster layers data train io report study experiments --include='*.h' --include='*.cpp' |
         grep -vE '^[^:]+:[0-9]+: *//' | sed -E 's#//.*$##' || true)
# Every name in one grep (a grep per name took 3 s of the check).
# "none" is also a value of --score-scale (none, log-length), and "learned" a reason a run stops
# (train/stopping.cpp's case Stop::learned, the one line that spells it): those lines name no
# encoding.
any_of() { local p; p=$(printf '"%s"|' "$@"); echo "${p%|}"; }
hits=$(grep -v '^layers/posenc/' <<<"$code" | grep -E "$(any_of $encodings)" | grep -v '"log-length"' |
         grep -v '^train/stopping.cpp:[0-9]*: *case Stop::learned: return "learned";' || true)
[[ -z "$hits" ]] || problem "an encoding named outside layers/posenc/: $hits"
hits=$(grep -v '^data/' <<<"$code" | grep -E "$(any_of $tasks)" || true)
[[ -z "$hits" ]] || problem "a task named outside data/: $hits"

# ---- 3. cited paths exist ----
# Files a guide creates (its code blocks marked `file=PATH`) exist once the guide is followed.
examples=$(grep -rhoE --include='*.md' 'file=[A-Za-z0-9_./-]+' docs 2>/dev/null | sed 's/^file=//' || true)
top='(core|cluster|layers|data|train|io|report|study|experiments|tests|docs)'
while IFS=: read -r file line path; do
  path=${path%.}
  [[ -e "$path" ]] && continue
  grep -qxF "$path" <<<"$examples" && continue
  problem "$file:$line cites $path, which does not exist"
done < <(git ls-files '*.h' '*.cpp' '*.sh' '*.md' 'CMakeLists.txt' 'run' '.ci/run' |
           grep -v '^tests/shell/test_layout.sh$' |  # this file plants missing paths on purpose
           xargs grep -noE "(^|[^A-Za-z0-9_./-])$top/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(h|cpp|md|sh|png|svg|txt|py|html|mjs|json)([^A-Za-z0-9_]|$)" |
           sed -E "s#^([^:]+:[0-9]+:)[^a-z]?#\1#; s#[^A-Za-z0-9_]\$##")
# Relative links in Markdown pages, resolved from the page's folder (one grep for every page).
while IFS=: read -r page line link; do
  target=${link%%#*}
  [[ -z "$target" || "$target" =~ ^[a-z]+: ]] && continue
  dir=.; [[ $page == */* ]] && dir=${page%/*}
  [[ -e "$dir/$target" ]] || problem "$page:$line links to $link, which does not exist"
done < <(git ls-files -z '*.md' | xargs -0 grep -HnoE '\]\([^)[:space:]]+\)' | sed -E 's/\]\(([^)]*)\)$/\1/')

# ---- the checks can fail: each is tried on a planted problem ----
if [[ "${1:-}" != "--no-self-check" ]]; then
  tmp=$(mktemp -d /tmp/ordo_layout_XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  mkdir "$tmp/src"
  git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$tmp/src"
  # The checks read text sources only and ask of other files that they exist: results,
  # figures and pages stand in as empty files, so that eight copies do not move 70 MB each.
  find "$tmp/src" -type f \( -name '*.h5' -o -name '*.png' -o -name '*.svg' -o -name '*.html' \
       -o -name '*.dat' -o -name '*.gp' \) -exec truncate -s 0 {} +
  plant() {  # plant <file> <line>: a copy of the repository with that line appended must fail
    rm -rf "$tmp/copy"
    cp -r "$tmp/src" "$tmp/copy"
    printf '%s\n' "$2" >>"$tmp/copy/$1"
    (cd "$tmp/copy" && git init -q && git add -A)
    if bash "$tmp/copy/tests/shell/test_layout.sh" --no-self-check >/dev/null 2>&1; then
      problem "planted '$2' in $1, and the check did not fail"
    fi
  }
  plant core/tensor.h '#include "layers/model.h"'
  plant layers/model.h '#include "cluster/cluster.h"'
  plant io/hdf5.h '#include "report/summary.h"'
  plant train/trainer.cpp 'static const char* kPlanted = "alibi";'
  plant report/summary.cpp 'static const char* kPlanted = "periodic";'
  plant layers/model.h '// see layers/no_such_file.h'
  plant docs/results.md '[gone](no-such-page.md)'
  plant README.md '[gone](no-such-page.md)'  # a page at the top, whose folder is "."
  # and the unplanted copy passes, so the failures above are the planted lines'
  rm -rf "$tmp/copy" && cp -r "$tmp/src" "$tmp/copy" && (cd "$tmp/copy" && git init -q && git add -A)
  bash "$tmp/copy/tests/shell/test_layout.sh" --no-self-check >/dev/null 2>&1 || problem "the unplanted copy fails"
fi

[[ $fail -eq 0 ]] || exit 1
echo "layout: include graph, registered names and cited paths OK"
