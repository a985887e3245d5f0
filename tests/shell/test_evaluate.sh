#!/usr/bin/env bash
# tests/shell/test_evaluate.sh: `ordo evaluate` scores a checkpoint on a held-out set of any
# seed: with the run's own --eval-seed it gives the run's last logged training-range
# evaluation (the same set, the same weights), with another seed another set, and a run's
# own per-seed sets (--eval-sets-per-seed) as it drew them; bad input exits 2 naming the problem.
# Usage: bash test_evaluate.sh <ordo> <ordo_tests>.
set -euo pipefail
ordo=${1:?usage: test_evaluate.sh <ordo> <ordo_tests>}
dir=$(mktemp -d /tmp/ordo_evaluate_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
fail() { echo "FAIL: $*"; exit 1; }

# The last training-range accuracy, exact match and loss a run logged.
logged() {
  "$ordo" export "$1" >/dev/null || fail "export $1 exited $?"
  python3 - "$1" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(f"{sys.argv[1]}/tidy.csv", newline=""))
        if r["kind"] == "eval" and r["eval_set"] == "train"]
last = max(int(r["step"]) for r in rows)
got = {r["metric"]: float(r["value"]) for r in rows if int(r["step"]) == last}
print(f'{got["acc"]:.4f} {got["exact"]:.4f} {got["loss"]:.4f}')
PY
}
train() {  # train <dir> <more flags...>
  local out=$1; shift
  "$ordo" train --task majority --encoding none --causal --steps 40 --d-model 16 --heads 2 --layers 1 --d-ff 32 \
    --batch 16 --eval-every 20 --eval-train-sequences 300 --eval-batch 64 --out "$out" --quiet "$@" ||
    fail "train $* exited $?"
  [[ -s $out/checkpoint.h5 ]] || fail "no checkpoint.h5 in $out"
}

run=$dir/run
train "$run"
read -r acc exact loss < <(logged "$run")
out=$("$ordo" evaluate --checkpoint "$run/checkpoint.h5") || fail "evaluate exited $?"
echo "$out" | grep -q "eval seed 1000003, the training range, 300 sequences: accuracy $acc, exact $exact (.*), loss $loss" ||
  fail "own set: got '$out', logged accuracy $acc exact $exact loss $loss"
other=$("$ordo" evaluate --checkpoint "$run/checkpoint.h5" --eval-seed 5 --sequences 200) || fail "evaluate --eval-seed 5"
echo "$other" | grep -q "eval seed 5, the training range, 200 sequences" || fail "other set: '$other'"
long=$("$ordo" evaluate --checkpoint "$run/checkpoint.h5" --len 40) || fail "evaluate --len 40"
echo "$long" | grep -q "length 40, 256 sequences" || fail "a length's set: '$long'"

# A run with sets of its own (--eval-sets-per-seed) is scored on them again.
own=$dir/own
train "$own" --seed 3 --eval-sets-per-seed
read -r acc exact loss < <(logged "$own")
out=$("$ordo" evaluate --checkpoint "$own/checkpoint.h5") || fail "evaluate (per-seed sets) exited $?"
echo "$out" | grep -q "eval seed 1000003 with seed 3 (sets per seed), the training range, 300 sequences: accuracy $acc, exact $exact (.*), loss $loss" ||
  fail "per-seed set: got '$out', logged accuracy $acc exact $exact loss $loss"
# ... and on the shared set with --sets-per-seed false, as a run without the option would be;
# the shared-set run on its seed's own set with true.
shared=$("$ordo" evaluate --checkpoint "$own/checkpoint.h5" --sets-per-seed false) || fail "evaluate --sets-per-seed false"
echo "$shared" | grep -q "eval seed 1000003, the training range" || fail "shared set: '$shared'"
[[ ${shared#*: } != "${out#*: }" ]] || fail "the shared set scored as the run's own: '$shared'"
mine=$("$ordo" evaluate --checkpoint "$run/checkpoint.h5" --sets-per-seed true) || fail "evaluate --sets-per-seed true"
echo "$mine" | grep -q "eval seed 1000003 with seed 0 (sets per seed), the training range" || fail "per-seed set of a shared-set run: '$mine'"

# Bad input: exit 2, the problem named.
expect_refused() {  # expect_refused <text the error names> <args...>
  local want=$1; shift
  set +e
  err=$("$ordo" evaluate "$@" 2>&1 >/dev/null)
  code=$?
  set -e
  [[ $code == 2 ]] || fail "evaluate $* exited $code, want 2 ($err)"
  echo "$err" | grep -q -- "$want" || fail "evaluate $*: '$err' does not name '$want'"
}
expect_refused "--checkpoint is required"
expect_refused "$dir/none.h5" --checkpoint "$dir/none.h5"
expect_refused "--eval-seed must be >= 0" --checkpoint "$run/checkpoint.h5" --eval-seed -1
expect_refused "--len -1" --checkpoint "$run/checkpoint.h5" --len -1
expect_refused "--sequences" --checkpoint "$run/checkpoint.h5" --sequences 0
expect_refused "--sets-per-seed expects true or false, got 'yes'" --checkpoint "$run/checkpoint.h5" --sets-per-seed yes
echo "ok"
