#!/usr/bin/env bash
# tests/shell/test_fuzz_readers.sh: ordo's readers on damaged and foreign files (issue 51,
# point 3). A tiny study and a tiny run write a results.h5, a run.h5 and a checkpoint.h5;
# tests/fuzz/fuzz_readers.cpp (ordo_fuzz_readers, beside <ordo>) damages copies of them
# and runs `ordo report`, `ordo export` and `ordo analyze` on each. Every mutation must end
# in the command's whole output or in one error of ordo's naming the file, leaving nothing
# half-written; a crash, a hang or another exception fails the test, naming the mutation
# (ordo_fuzz_readers --from I --mutations 1 --keep 1 replays it). Two copies of the harness
# built with a reader check taken out (ordo_fuzz_planted_*) must each report their bug.
# Usage: bash test_fuzz_readers.sh <ordo> <ordo_tests>.
set -euo pipefail
ordo=${1:?usage: test_fuzz_readers.sh <ordo> <ordo_tests>}
fuzz=$(dirname "$ordo")/ordo_fuzz_readers
[[ -x $fuzz ]] || { echo "FAIL: $fuzz not built"; exit 1; }
dir=$(mktemp -d /tmp/ordo_fuzz_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=1

model=(--steps 20 --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 --eval-every 10 --eval-batch 64)
"$ordo" compare --tasks order,shift --encodings none,rope --seeds 1 "${model[@]}" --out "$dir/study" --quiet
"$ordo" train --task order --encoding rope "${model[@]}" --out "$dir/run" >/dev/null
# A fixed set of mutations (seed 1, the first 3000; 35 s on 2 cores, two at a time,
# nothing else running): the same ones every run, so a finding is reproducible. ASan's
# checks slow every reader several-fold: 300 there.
mutations=3000
[[ ${ORDO_SANITIZED:-0} == 1 ]] && mutations=300
"$fuzz" --study "$dir/study" --run "$dir/run" --work "$dir/work" --seed 1 --mutations $mutations \
  >"$dir/fuzz.log" 2>&1 || { cat "$dir/fuzz.log"; echo "FAIL: findings above"; exit 1; }
cat "$dir/fuzz.log"
done=$(sed -nE 's/^([0-9]+) mutations in .*/\1/p' "$dir/fuzz.log")
[[ ${done:-0} -eq $mutations ]] || { echo "FAIL: ${done:-0} of $mutations mutations ran"; exit 1; }

# The planted bugs (CMakeLists.txt): each harness must report its bug, by the mutations that
# reach it (8: extra groups, among them eval/<len> names that are not lengths; 9: datasets
# that claim 2^40 values).
for planted in names:8 sizes:9; do
  bug=${planted%:*}
  rc=0
  "$(dirname "$ordo")/ordo_fuzz_planted_$bug" --study "$dir/study" --run "$dir/run" --work "$dir/work" --seed 1 \
    --mutations 200 --seconds 15 --only "${planted#*:}" >"$dir/planted.log" 2>&1 || rc=$?
  found=$(grep -c '^FINDING' "$dir/planted.log" || true)
  [[ $rc -eq 1 && $found -ge 1 ]] || { cat "$dir/planted.log"; echo "FAIL: the planted '$bug' bug was not found"; exit 1; }
  echo "planted '$bug': $found findings, e.g. $(grep -m1 '^FINDING' "$dir/planted.log" | cut -c1-160)"
done
echo "PASS: $done mutations, no finding; both planted bugs found"
