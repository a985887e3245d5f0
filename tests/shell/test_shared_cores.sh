#!/usr/bin/env bash
# tests/shell/test_shared_cores.sh: two ordo processes on the same cores share them
# (issue 23; cluster/shared_cores.h).
#   1. two `ordo train` at once each finish within 2x of one alone on one thread, its fair
#      share (before the sharing, two 1000-step order runs took 500 s each against 7.6 s
#      alone on two threads), with the default OpenMP waiting policy (ctest's passive one
#      unset), and each says that it shares;
#   2. their parameters are those of the run alone, bit for bit (the thread count changed
#      between steps; results never depend on it);
#   3. the register holds no file once they have exited; the file of a process killed with -9
#      is removed by the next one; ORDO_SHARE_CORES=0 registers nothing.
# Each run registers in a directory of its own (ORDO_SHARE_DIR), so ordo processes of other
# tests do not count; ctest runs this test alone (RUN_SERIAL), as it measures wall times.
# Usage: bash test_shared_cores.sh <ordo> [<ordo_tests>]
set -uo pipefail
ordo=${1:?usage: test_shared_cores.sh <ordo> [<ordo_tests>]}
dir=$(mktemp -d /tmp/ordo_shared_cores_XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT
unset OMP_WAIT_POLICY OMP_NUM_THREADS
export ORDO_SHARE_DIR=$dir/share
source "$(dirname "$0")/lib/check.sh"
now() { date +%s.%N; }
registered() { ls "$ORDO_SHARE_DIR" 2>/dev/null | grep -c '^[0-9]*$'; }

steps=${ORDO_SHARED_CORES_STEPS:-600}
[[ ${ORDO_SANITIZED:-} == 1 ]] && steps=100  # wall times mean nothing under ASan; the rest holds
train=(train --task order --steps "$steps" --eval-every 100000 --seed 3)

t0=$(now)
"$ordo" "${train[@]}" --out "$dir/solo" >"$dir/solo.log" 2>&1 || { cat "$dir/solo.log"; echo "FAIL: solo run"; exit 1; }
solo=$(echo "$(now) - $t0" | bc)
# The fair share of each process of a pair is one core: the bound is set against the run
# alone on one thread (about 1.9x the two-thread time on the 2-core machine).
t0=$(now)
OMP_NUM_THREADS=1 "$ordo" "${train[@]}" --out "$dir/solo1" >/dev/null 2>&1 || echo "FAIL: solo run on one thread"
solo1=$(echo "$(now) - $t0" | bc)

pair() {  # two runs at once into a and b; their wall times in $ta and $tb
  rm -rf "$dir/a" "$dir/b"
  local t0 k
  t0=$(now)
  for k in a b; do
    ("$ordo" "${train[@]}" --out "$dir/$k" >"$dir/$k.log" 2>&1; echo $? >"$dir/$k.rc"; echo "$(now) - $t0" | bc >"$dir/$k.time") &
    pids+=($!)
  done
  wait
  pids=()
  ta=$(cat "$dir/a.time")
  tb=$(cat "$dir/b.time")
  echo "$steps-step order run: alone ${solo} s (on one thread ${solo1} s); two at once ${ta} s and ${tb} s" \
    "($(echo "scale=2; $ta / $solo" | bc)x, $(echo "scale=2; $tb / $solo" | bc)x the two-thread run; $(nproc) cores)"
}
pair
# A shared VM drifts by 1.5x within seconds (docs/performance.md): a pair over the bound is
# timed once more, and the better of the two counts. Without the sharing a pair member took
# 20x the two-thread run, about 10x the one-thread one.
bound="2 * $solo1"
if [[ ${ORDO_SANITIZED:-} != 1 && $(echo "$ta > $bound || $tb > $bound" | bc) == 1 ]]; then
  echo "over the bound: timing the pair once more"
  pair
fi
check "both runs of the pair succeeded" test "$(cat "$dir/a.rc")$(cat "$dir/b.rc")" = 00
if [[ ${ORDO_SANITIZED:-} != 1 ]]; then
  for t in "$ta" "$tb"; do
    check "a run of the pair took ${t} s, within 2x of ${solo1} s alone on one thread" \
      test "$(echo "$t <= $bound" | bc)" = 1
  done
fi
for k in a b; do
  check "run $k said it shares the cores" grep -q "2 ordo processes share these" "$dir/$k.log"
  check "run $k: parameters equal the solo run's" h5diff -q "$dir/solo/checkpoint.h5" "$dir/$k/checkpoint.h5" /params /params
  check "run $k: train_loss equals the solo run's" \
    h5diff -q "$dir/solo/run.h5" "$dir/$k/run.h5" /runs/order/rope/seed3/train_loss /runs/order/rope/seed3/train_loss
done
check "the solo run did not say it shares" bash -c "! grep -q 'processes share' '$dir/solo.log'"
check "no process left registered after a normal exit ($(registered))" test "$(registered)" = 0

# A process killed with -9 leaves its file; the next ordo removes it.
start_bg() {  # start_bg <out> [env...]: a long run in the background, until its --out exists
  env "${@:2}" "$ordo" train --task shift --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 \
    --steps 1000000 --eval-every 100000 --quiet --out "$1" >"$dir/bg.log" 2>&1 &
  bg=$!
  pids+=($bg)
  for _ in $(seq 1 400); do
    [[ -d $1 ]] && break
    sleep 0.05
  done
}
start_bg "$dir/killed"
check "a running process is registered under its pid" test -e "$ORDO_SHARE_DIR/$bg"
kill -9 "$bg"
wait "$bg" 2>/dev/null
check "the killed process's file stays behind" test -e "$ORDO_SHARE_DIR/$bg"
"$ordo" train --task shift --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 --steps 5 --quiet --out "$dir/next" \
  >/dev/null 2>&1
check "the next run removed it" test ! -e "$ORDO_SHARE_DIR/$bg"

start_bg "$dir/off" ORDO_SHARE_CORES=0
check "ORDO_SHARE_CORES=0: nothing registered" test "$(registered)" = 0
kill -9 "$bg"
wait "$bg" 2>/dev/null

finish
