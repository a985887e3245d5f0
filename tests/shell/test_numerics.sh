#!/usr/bin/env bash
# tests/shell/test_numerics.sh: numerical faults stop a run (issue 7, point 3).
#
# Usage: bash test_numerics.sh <ordo> [<ordo_tests>]
#
# A real divergence, no test hook: SGD without clipping at a learning rate that grows with
# the warmup (--lr 10 --warmup 100) blows up after a few dozen steps on a tiny model. The
# test asserts that
#   - the run exits 1 with a message naming the step of the fault;
#   - the checkpoint written earlier by --ckpt-every is still there, from a step before the
#     fault, with finite parameters, and resuming from it reproduces the same fault at the
#     same step (so it loads, and holds the state before the fault) without rewriting it;
#   - run.h5 holds the curve up to the fault;
#   - under --check-numerics the message names the first op that produced the value;
#   - an immediate blow-up (--lr 1e30) stops at once and writes no checkpoint at all.
# Prints one line per failed check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
ordo=${1:?usage: test_numerics.sh <ordo> [<ordo_tests>]}
dir=$(mktemp -d /tmp/ordo_numerics_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
command -v h5dump >/dev/null || { echo "FAIL: h5dump not found (apt-get install hdf5-tools)"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
check() {  # check <description> <command...>: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what"
  fi
}

model=(--task shift --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 --steps 200 --eval-every 0
       --eval-batch 64 --optimizer sgd --clip 0 --quiet)
diverge=("${model[@]}" --lr 10 --warmup 100 --ckpt-every 4)

attr_step() { h5dump -a /step "$1" 2>/dev/null | sed -n 's/^ *(0): *\([0-9-]*\).*/\1/p'; }
fault_step() { sed -n 's/.*at step \([0-9][0-9]*\).*/\1/p' "$1" | head -1; }
params_finite() { ! h5dump -g /params "$1" | grep -Eqi '(nan|inf)'; }
dims_of() { h5dump -H -d "$2" "$1" | sed -n 's/.*DATASPACE  SIMPLE { ( \([0-9]*\) ).*/\1/p'; }

# ---- 1. a divergence, without --check-numerics -------------------------------------------
"$ordo" train "${diverge[@]}" --out "$dir/a" >"$dir/a.out" 2>"$dir/a.err"
code=$?
msg=$(cat "$dir/a.err")
check "diverging run exits 1 (got $code: $msg)" test "$code" -eq 1
check "the message names a numerical fault and its step: $msg" grep -Eq 'numerics: .* at step [0-9]+' "$dir/a.err"
check "the message suggests --check-numerics: $msg" grep -q 'rerun with --check-numerics' "$dir/a.err"
check "no HDF5 error stack" bash -c "! grep -q HDF5-DIAG '$dir/a.err' '$dir/a.out'"
fault=$(fault_step "$dir/a.err")
fault=${fault:-0}
check "the fault comes after the first checkpoint (step $fault > 4)" test "$fault" -gt 4
ck=$dir/a/checkpoint.h5
check "the last good checkpoint exists" test -f "$ck"
ck_step=$(attr_step "$ck")
ck_step=${ck_step:--1}
check "checkpoint step $ck_step is a --ckpt-every step before the fault at $fault" \
  bash -c "[[ $ck_step -gt 0 && $((ck_step % 4)) -eq 0 && $ck_step -lt $fault ]]"
check "the checkpoint's parameters are finite" params_finite "$ck"
check "no temporary checkpoint file is left" bash -c "! ls '$dir/a' | grep -q tmp"
logged=$(dims_of "$dir/a/run.h5" /runs/shift/rope/seed0/train_loss)
check "run.h5 holds the curve up to the fault ($logged points, fault at $fault)" test "${logged:-0}" -eq $((fault - 1))
ck_sum=$(md5sum <"$ck")

# Resuming from the kept checkpoint: it loads, and the same fault comes at the same step.
"$ordo" train --out "$dir/a" --resume --quiet >"$dir/r.out" 2>"$dir/r.err"
code=$?
check "the resumed run exits 1 again (got $code: $(cat "$dir/r.err"))" test "$code" -eq 1
check "the resumed run faults at the same step $fault: $(cat "$dir/r.err")" test "$(fault_step "$dir/r.err")" = "$fault"
check "the resumed run left the good checkpoint untouched" test "$(md5sum <"$ck")" = "$ck_sum"

# ---- 2. the same under --check-numerics: the first op is named ---------------------------
"$ordo" train "${diverge[@]}" --check-numerics --out "$dir/b" >"$dir/b.out" 2>"$dir/b.err"
code=$?
msg=$(cat "$dir/b.err")
check "--check-numerics run exits 1 (got $code: $msg)" test "$code" -eq 1
check "--check-numerics names the first op and the step: $msg" \
  grep -Eq "numerics: non-finite (output|gradient) .* first produced by op '[a-z_0-9]+'.* at step [0-9]+" "$dir/b.err"
bfault=$(fault_step "$dir/b.err")
check "--check-numerics stops no later than the plain run ($bfault <= $fault)" test "${bfault:-999999}" -le "$fault"
ck_step=$(attr_step "$dir/b/checkpoint.h5")
check "--check-numerics keeps a checkpoint before the fault ($ck_step < $bfault)" test "${ck_step:-999999}" -lt "${bfault:-0}"

# ---- 3. an immediate blow-up: nothing to checkpoint --------------------------------------
"$ordo" train "${model[@]}" --lr 1e30 --warmup 0 --ckpt-every 4 --out "$dir/c" >"$dir/c.out" 2>"$dir/c.err"
code=$?
msg=$(cat "$dir/c.err")
check "--lr 1e30 exits 1 (got $code: $msg)" test "$code" -eq 1
check "--lr 1e30 names the fault and its step: $msg" grep -Eq 'numerics: .* at step [0-9]+' "$dir/c.err"
check "--lr 1e30 faults within 4 steps: $msg" test "$(fault_step "$dir/c.err")" -le 4
check "--lr 1e30 writes no checkpoint" test ! -e "$dir/c/checkpoint.h5"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
