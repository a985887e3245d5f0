#!/usr/bin/env bash
# tests/shell/test_mpi.sh: ordo over MPI (issue 22): `mpirun ordo compare` hands the grid's
# runs to the ranks and writes the results of the one-process study; `mpirun ordo train`
# trains data-parallel with the bits of the one-process run; a rank that fails or dies stops
# the study, naming the rank and the run, and the finished runs are kept for --resume.
#
# Usage: bash test_mpi.sh <ordo> [<ordo_tests>]
# Needs Open MPI's mpirun (Debian's openmpi-bin, installed by ./run) and h5dump. Runs 2 and 3
# ranks on this machine (--oversubscribe: more ranks than cores), one OpenMP thread each.
set -uo pipefail
ordo=${1:?usage: test_mpi.sh <ordo> [<ordo_tests>]}
source "$(dirname "$0")/lib/check.sh"
dir=$(mktemp -d /tmp/ordo_mpi_XXXXXX)
bg=
cleanup() {
  [[ -n $bg ]] && kill -9 "$bg" 2>/dev/null
  [[ -n ${KEEP:-} ]] || rm -rf "$dir"
}
trap cleanup EXIT
export OMP_NUM_THREADS=1
# Open MPI refuses root unless told; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
command -v mpirun >/dev/null || { echo "FAIL: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"; finish; exit 1; }
command -v h5dump >/dev/null || { echo "FAIL: h5dump not found (apt-get install hdf5-tools)"; finish; exit 1; }
mpi() { local n=$1; shift; mpirun --oversubscribe -np "$n" "$ordo" "$@"; }

source "$(dirname "$0")/lib/h5_numbers.sh"
same() { h5_same "$1" "$2" "$dir"; }  # every number equal, wall times aside
same_checkpoints() {  # every run's final checkpoint in grid A equals grid B's
  local a=$1 b=$2 f n=0
  for f in $(cd "$a/checkpoints" && find . -name '*.h5' | sort); do
    same "$a/checkpoints/$f" "$b/checkpoints/$f" || { echo "  checkpoint $f differs"; return 1; }
    n=$((n + 1))
  done
  [[ $n -gt 0 ]]
}

small=(--d-model 16 --heads 2 --layers 1 --d-ff 32 --eval-every 50 --eval-batch 32 --quiet)
grid=(compare --tasks order,shift --encodings none,rope "${small[@]}" --batch 8)

# ---- 1. a study over 2 ranks writes the one-process study's results, bit for bit ----------
"$ordo" "${grid[@]}" --steps 200 --seeds 2 --out "$dir/one" || { echo "FAIL: the one-process study failed"; finish; exit 1; }
check "mpirun -np 2 ordo compare exits 0" mpi 2 "${grid[@]}" --steps 200 --seeds 2 --out "$dir/two"
# The two files differ in their seed's setting too; a weight's row must differ as well (a
# line "(i,j): ..." of a matrix), so that a comparison that read no dataset does not pass.
differ() { rm -f "$dir/h5_diff.txt"; ! same "$@" >/dev/null && grep -Eq '^[<>] +\([0-9]+,[0-9]+\): ' "$dir/h5_diff.txt"; }
check "the comparison can fail: seed 0's and seed 1's checkpoints differ" \
  differ "$dir/one/checkpoints/order/rope/seed0.h5" "$dir/one/checkpoints/order/rope/seed1.h5"
check "2 ranks: results.h5 equals the one-process study's" same "$dir/one/results.h5" "$dir/two/results.h5"
check "2 ranks: every checkpoint equals the one-process study's" same_checkpoints "$dir/one" "$dir/two"
check "2 ranks: summary.md written by rank 0" grep -q '^## Across tasks' "$dir/two/summary.md"
check "2 ranks: report.html written by rank 0" test -s "$dir/two/report.html"

# ---- 2. 3 ranks, and --resume across a different rank count --------------------------------
check "mpirun -np 3 (1 seed) exits 0" mpi 3 "${grid[@]}" --steps 200 --seeds 1 --out "$dir/three"
check "mpirun -np 2 --resume (2 seeds) continues a 3-rank grid" mpi 2 "${grid[@]}" --steps 200 --seeds 2 --resume --out "$dir/three"
check "3 then 2 ranks: results.h5 equals the one-process study's" same "$dir/one/results.h5" "$dir/three/results.h5"
check "3 then 2 ranks: every checkpoint equals" same_checkpoints "$dir/one" "$dir/three"

# ---- 3. a run that fails on some rank stops the study, naming the rank and the run ---------
mpi 3 "${grid[@]}" --steps 200 --seeds 1 --vary lr=1e-3,1e30 --clip 0 --out "$dir/fail" >"$dir/fail.log" 2>&1
rc=$?
check "a failing run: mpirun exits non-zero (got $rc)" test "$rc" -ne 0
check "a failing run: the error names the rank and the run" \
  grep -Eq 'rank [0-9]+: (order|shift)/(none|rope)/lr=1e30/seed0: numerics' "$dir/fail.log"
[[ $failed -eq 0 ]] || cat "$dir/fail.log"

# ---- 4. a rank killed mid-study: the study stops naming it; --resume finishes the grid -----
mpi 3 "${grid[@]}" --seeds 2 --steps 1000 --ckpt-every 25 --out "$dir/kill" >"$dir/kill.log" 2>&1 &
bg=$!
victim=
for _ in $(seq 1 600); do  # the first checkpoints, then a rank other than 0
  if [[ -n $(find "$dir/kill/checkpoints" -name '*.h5' 2>/dev/null | head -n 1) ]]; then
    for p in $(pgrep -f "$ordo compare"); do
      if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q '^OMPI_COMM_WORLD_RANK=2$'; then victim=$p; fi
    done
    [[ -n $victim ]] && break
  fi
  sleep 0.1
done
check "found rank 2 training" test -n "$victim"
[[ -n $victim ]] && kill -9 "$victim"
wait "$bg"
rc=$?
bg=
check "a killed rank: mpirun exits non-zero (got $rc)" test "$rc" -ne 0
check "a killed rank: the error names rank 2 and its run" \
  grep -Eq 'rank 2 went silent \(killed or crashed\) while training (order|shift)/(none|rope)/seed[01]' "$dir/kill.log"
[[ $failed -eq 0 ]] || cat "$dir/kill.log"
check "a killed rank: the finished runs' checkpoints are kept" test -n "$(find "$dir/kill/checkpoints" -name '*.h5')"
check "after a killed rank, mpirun -np 2 --resume finishes the grid" \
  mpi 2 "${grid[@]}" --seeds 2 --steps 1000 --ckpt-every 25 --resume --out "$dir/kill"
"$ordo" "${grid[@]}" --seeds 2 --steps 1000 --out "$dir/one1000" || echo "FAIL: the 1000-step reference failed"
check "killed, then resumed: results.h5 equals the one-process study's" same "$dir/one1000/results.h5" "$dir/kill/results.h5"

# ---- 5. data-parallel training: the one-process run's bits -------------------------------
# With a final sweep, which rank 0 scores while the others wait for it (train/trainer.h).
train=(train --task shift --encoding rope "${small[@]}" --steps 200 --eval-lens-final 100,120)  # --batch: 64, the default
"$ordo" "${train[@]}" --out "$dir/t1" || echo "FAIL: the one-process run failed"
check "mpirun -np 2 ordo train exits 0" mpi 2 "${train[@]}" --out "$dir/t2"
check "2 ranks: checkpoint.h5 (parameters, moments, curves) equals one process's" same "$dir/t1/checkpoint.h5" "$dir/t2/checkpoint.h5"
check "2 ranks: run.h5 equals one process's" same "$dir/t1/run.h5" "$dir/t2/run.h5"
"$ordo" "${train[@]}" --batch 48 --micro-batches 6 --out "$dir/t6" || echo "FAIL: the 6-part run failed"
check "mpirun -np 3 ordo train --micro-batches 6 exits 0" mpi 3 "${train[@]}" --batch 48 --micro-batches 6 --out "$dir/t6x3"
check "3 ranks: checkpoint.h5 equals one process's" same "$dir/t6/checkpoint.h5" "$dir/t6x3/checkpoint.h5"
# A --until-learned run: rank 0 decides at each evaluation and tells the others, so every rank
# stops at the one-process run's step (docs/spec.md §5.5).
until=(train --task shift --encoding rope "${small[@]}" --steps 600 --until-learned --learned-at 0.9)
"$ordo" "${until[@]}" --out "$dir/u1" || echo "FAIL: the one-process --until-learned run failed"
check "--until-learned: the one-process run stopped early, having learned" \
  bash -c "h5dump -a /runs/shift/rope/seed0/stop_reason '$dir/u1/run.h5' | grep -q '\"learned\"'"
check "mpirun -np 2 ordo train --until-learned exits 0" mpi 2 "${until[@]}" --out "$dir/u2"
check "2 ranks, --until-learned: run.h5 (with the stop) equals one process's" same "$dir/u1/run.h5" "$dir/u2/run.h5"
check "2 ranks, --until-learned: checkpoint.h5 equals one process's" same "$dir/u1/checkpoint.h5" "$dir/u2/checkpoint.h5"
mpi 3 "${train[@]}" --out "$dir/t3bad" >"$dir/bad.log" 2>&1
rc=$?
check "3 ranks and 2 micro-batches: refused (got $rc)" test "$rc" -ne 0
check "3 ranks and 2 micro-batches: the message says what to pass" grep -q -- "--micro-batches 2 cannot be shared by 3 ranks" "$dir/bad.log"
check "3 ranks and 2 micro-batches: nothing written" test ! -e "$dir/t3bad/checkpoint.h5"

# ---- 6. rounds decided by the runs before: --lr-seeds and --kept-seeds ---------------------
# Rank 0 alone reads the first round's records; it tells every rank which runs come next
# (study/study.cpp next_round), so the grid trains and writes the one-process study's runs.
# Each second round holds 2 runs or more, so that a rank other than 0 trains one of them.
rounds() {  # LABEL DIR RUNS RANKS ARGS...: one process, then RANKS ranks, the same files
  local label=$1 name=$2 runs=$3 n=$4
  shift 4
  "$ordo" "$@" --out "$dir/${name}1" || echo "FAIL: the one-process $label study failed"
  check "$label: the one-process study trained $runs runs" \
    test "$(cd "$dir/${name}1/checkpoints" && find . -name '*.h5' | wc -l)" -eq "$runs"
  check "mpirun -np $n ordo compare $label exits 0" mpi "$n" "$@" --out "$dir/${name}$n"
  check "$n ranks, $label: results.h5 equals the one-process study's" same "$dir/${name}1/results.h5" "$dir/${name}$n/results.h5"
  check "$n ranks, $label: every checkpoint equals" same_checkpoints "$dir/${name}1" "$dir/${name}$n"
}
# Both rates' seed 0, then the chosen rate's seeds 1 and 2.
rounds "--lr-seeds 1" lr 4 2 compare --tasks shift --encodings rope "${small[@]}" --batch 8 --steps 80 --lrs 1e-2,1e-9 --seeds 3 --lr-seeds 1
# Seed 0, then seeds 1 and 2 (none learns order in 40 steps).
rounds "--kept-seeds 2" kept 3 3 compare --tasks order --encodings none "${small[@]}" --batch 8 --steps 40 --seeds 1 --kept-seeds 2 --max-seeds 3

# ---- 7. commands that run in one process say so ------------------------------------------
mpi 2 bench --min-seconds 0.1 >"$dir/bench.log" 2>&1
check "mpirun ordo bench: refused" grep -q "this command runs in one process" "$dir/bench.log"
finish
