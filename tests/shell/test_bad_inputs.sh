#!/usr/bin/env bash
# tests/shell/test_bad_inputs.sh: the catalogue of bad inputs (issue 7, point 1).
#
# Usage: bash test_bad_inputs.sh <ordo> [<ordo_tests>]
#
# Every row is one command line that must be refused. Each runs in a fresh temporary
# directory (its working directory, so a default output path would land there too), and
# the test asserts:
#   - exit code 2 (bad input; 1 would be a failure while running);
#   - stderr contains the row's substring (the message names the problem and, where there
#     is a set, the accepted values);
#   - neither stdout nor stderr carries an HDF5 error stack ("HDF5-DIAG");
#   - nothing was written: the directory's listing and the content of every file in it are
#     the same before and after (files a row's setup put there, a corrupt checkpoint for
#     example, must be untouched; a row's --out must not appear).
# Prints one line per failing row and a final "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
ordo=${1:?usage: test_bad_inputs.sh <ordo> [<ordo_tests>]}
ordo=$(cd "$(dirname "$ordo")" && pwd)/$(basename "$ordo")
root=$(mktemp -d /tmp/ordo_bad_inputs_XXXXXX)
trap 'rm -rf "$root"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

passed=0
failed=0
n=0

# ---- fixtures, made once ---------------------------------------------------------------
fix=$root/fixtures
mkdir -p "$fix"
tiny=(--task shift --d-model 16 --heads 2 --layers 1 --d-ff 16 --batch 4 --eval-batch 64 --quiet)
if ! "$ordo" train "${tiny[@]}" --steps 2 --out "$fix/run" >"$fix/train.log" 2>&1 ||
   [[ ! -f $fix/run/checkpoint.h5 ]]; then
  echo "FAIL: could not make the fixture checkpoint:"; cat "$fix/train.log"; exit 1
fi
head -c 8192 /dev/urandom >"$fix/garbage.bin"
head -c 3000 "$fix/run/checkpoint.h5" >"$fix/truncated.h5"

# ---- setups: each prepares files in the row's directory ($1) ---------------------------
setup_none() { :; }
setup_garbage_ckpt() { mkdir -p "$1/out"; cp "$fix/garbage.bin" "$1/out/checkpoint.h5"; }
setup_truncated_ckpt() { mkdir -p "$1/out"; cp "$fix/truncated.h5" "$1/out/checkpoint.h5"; }
setup_finished_run() { cp -r "$fix/run" "$1/out"; }
setup_finished_study() { cp -r "$fix/study" "$1/out"; }
setup_inputs() {  # input files a row may name under in/
  mkdir -p "$1/in"
  cp "$fix/garbage.bin" "$1/in/garbage.h5"
  cp "$fix/run/checkpoint.h5" "$1/in/ckpt.h5"
  printf '# a comment\nsteps = 10\n\nlearning_rate = 0.1\n' >"$1/in/unknown_key.conf"
  printf 'task = shift\n# the peak learning rate\nlr = fast\n' >"$1/in/bad_value.conf"
  printf 'steps = 10\nbatch\n' >"$1/in/no_equals.conf"
  printf 'steps = 10\nlr = 0.1\nsteps = 20\n' >"$1/in/repeated.conf"
  printf 'steps = 0\n' >"$1/in/zero_steps.conf"
  printf 'd-model = 30\nheads = 4\n' >"$1/in/indivisible.conf"
  printf '' >"$1/in/empty.conf"
  printf 'steps = 10\n\x00\x01\x02binary\n' >"$1/in/binary.conf"
  printf 'steps = 10\n%s = 1\n' "$(head -c 5000 /dev/zero | tr '\0' a)" >"$1/in/long_line.conf"
  head -c 2000000 /dev/zero | tr '\0' '#' >"$1/in/huge.conf"
  printf '\xef\xbb\xbflearning_rate = 0.1\n' >"$1/in/bom_unknown.conf"
}

# Everything in the directory: names, types, sizes and contents.
snapshot() {
  (cd "$1" && find . -printf '%p %y %s\n' | LC_ALL=C sort &&
     find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
}

# row <setup> <expected substring> <args...>: @OUT is <dir>/out, @IN is <dir>/in.
row() {
  local setup=$1 want=$2
  shift 2
  n=$((n + 1))
  local dir=$root/row$n
  mkdir -p "$dir"
  "setup_$setup" "$dir"
  local args=() a
  for a in "$@"; do
    a=${a//@OUT/$dir/out}
    a=${a//@IN/$dir/in}
    args+=("$a")
  done
  want=${want//@OUT/$dir/out}
  want=${want//@IN/$dir/in}
  local before after code
  before=$(snapshot "$dir")
  (cd "$dir" && timeout 60 "$ordo" "${args[@]}" >"$root/stdout" 2>"$root/stderr")
  code=$?
  after=$(snapshot "$dir")
  local problems=()
  [[ $code -eq 2 ]] || problems+=("exit code $code, expected 2")
  grep -qF -- "$want" "$root/stderr" || problems+=("stderr lacks '$want'")
  if grep -q "HDF5-DIAG" "$root/stdout" "$root/stderr"; then problems+=("an HDF5 error stack was printed"); fi
  [[ $before == "$after" ]] || problems+=("files changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -5 | tr '\n' ' ')")
  if [[ ${#problems[@]} -eq 0 ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL row $n: ordo $*"
    local p
    for p in "${problems[@]}"; do echo "    $p"; done
    echo "    stderr: $(head -c 600 "$root/stderr")"
  fi
  rm -rf "$dir"
}

# ---- the catalogue ---------------------------------------------------------------------
# Commands, flags, values.
row none "unknown command 'frobnicate'; known: train, compare" frobnicate --out @OUT
row none "unknown flag --learning-rate" train --learning-rate 0.1 --out @OUT
row none "unexpected argument 'shift'" train shift --out @OUT
row none "--steps needs a value" train --out @OUT --steps
row none "--steps given twice" train --steps 5 --steps 6 --out @OUT
row none "--out given twice" train --out @OUT --out @OUT
row none "unknown task 'sorting'; known tasks: order, shift, periodic, copy, reverse, sort, flipflop, recall" train --task sorting --out @OUT
row none "unknown encoding 'sinus'; known: none, sinusoidal, learned, rope" train --encoding sinus --out @OUT
row none "unknown optimizer 'rmsprop'" train --optimizer rmsprop --out @OUT
row none "unknown target 'fill'; known targets: complete, period" train --task periodic --target fill --out @OUT
row none "unknown head 'mean'; known: token, pooled, cls" train --head mean --out @OUT
row none "--head token does not fit task 'order'" train --task order --head token --out @OUT
row none "--head pooled does not fit task 'shift'" train --task shift --head pooled --out @OUT
row none "--steps expects a whole number, got 'ten'" train --steps ten --out @OUT
row none "--steps expects a whole number, got '1e3'" train --steps 1e3 --out @OUT
row none "--batch expects a whole number, got '99999999999999999999'" train --batch 99999999999999999999 --out @OUT
row none "--lr expects a finite number, got 'fast'" train --lr fast --out @OUT
row none "--lr expects a finite number, got 'nan'" train --lr nan --out @OUT
row none "--lr expects a finite number, got 'inf'" train --lr inf --out @OUT
row none "--causal expects true or false, got 'maybe'" train --causal=maybe --out @OUT
row none "--seed expects a non-negative whole number" train --seed -1 --out @OUT
row none "--train-seed expects 'seed' or a non-negative whole number, got 'x'" train --train-seed x --out @OUT
row none "--steps must be positive, got 0" train --steps 0 --out @OUT
row none "--steps must be positive, got -5" train --steps -5 --out @OUT
row none "--batch must be positive, got 0" train --batch 0 --out @OUT
row none "--batch must be positive, got -8" train --batch -8 --out @OUT
row none "--lr must be positive, got 0" train --lr 0 --out @OUT
row none "--lr must be positive, got -0.001" train --lr -0.001 --out @OUT
row none "--warmup must be >= 0" train --warmup -1 --out @OUT
row none "--clip must be >= 0" train --clip -1 --out @OUT
row none "--eval-every must be >= 0" train --eval-every -1 --out @OUT
row none "--eval-batch must be positive" train --eval-batch 0 --out @OUT
row none "--momentum must be in [0, 1)" train --optimizer sgd --momentum 1 --out @OUT
row none "--rope-base must be > 1" train --rope-base 1 --out @OUT
row none "--dropout must be in [0, 1)" train --dropout 1.5 --out @OUT
row none "--beta1 must be in [0, 1)" train --beta1 1 --out @OUT
row none "--beta2 must be in [0, 1)" train --beta2 -0.5 --out @OUT
row none "--eps must be positive" train --eps 0 --out @OUT
row none "--weight-decay must be >= 0" train --weight-decay -0.1 --out @OUT
# Model shapes.
row none "--d-model must be positive" train --d-model 0 --out @OUT
row none "--heads must be positive" train --heads 0 --out @OUT
row none "--layers must be positive" train --layers 0 --out @OUT
row none "--d-ff must be positive" train --d-ff -4 --out @OUT
row none "--d-model 30 is not divisible by --heads 4" train --d-model 30 --heads 4 --out @OUT
row none "rope: the head width d_h = d_model / n_heads = 12 / 4 = 3 is odd" train --encoding rope --d-model 12 --heads 4 --out @OUT
row none "fourier2d: d_model = 18 must be a positive multiple of 4" train --encoding fourier2d --grid-w 4 --d-model 18 --heads 2 --out @OUT
row none "--grid-w must be >= 0" train --grid-w -2 --out @OUT
row none "encoding xpos is defined for causal attention only: add --causal" train --encoding xpos --out @OUT
row none "--layer-encodings: 'rope,,none' has an empty part" train --layers 3 --layer-encodings rope,,none --out @OUT
row none "--layer-encodings: 'rope+none,rope' mixes '+' and ','" train --layers 3 --layer-encodings rope+none,rope --out @OUT
row none "--layer-encodings names 2 encodings for --layers 3" train --layers 3 --layer-encodings rope,none --out @OUT
row none "stickbreaking has no softmax" train --encoding stickbreaking --causal --score-scale log-length --out @OUT
row none "stickbreaking has no softmax" train --layers 2 --layer-encodings rope,stickbreaking --causal --score-scale log-length --out @OUT
row none "unknown --rope-scaling 'linear'; accepted: none, pi, ntk, yarn" train --rope-scaling linear --out @OUT
row none "--rope-fraction must be in [0, 1], got 1.5" train --rope-fraction 1.5 --out @OUT
row none "--fire-hidden must be >= 1, got 0" train --encoding fire --fire-hidden 0 --out @OUT
row none "fire: unknown --fire-init 'xavier'; accepted: torch, normal" train --encoding fire --fire-init xavier --out @OUT
row none "fire: unknown --fire-threshold 'fixed'; accepted: multiplier, length" train --encoding fire --fire-threshold fixed --out @OUT
row none "t5: unknown --t5-causal 'future'; accepted: past, both" train --encoding t5 --causal --t5-causal future --out @OUT
row none "--head cls does not fit --causal true: the cls token comes first" train --task order --head cls --causal --out @OUT
row none "rope: --rope-scaling yarn does not fit --random-positions" train --encoding rope --rope-scaling yarn --random-positions 512 --out @OUT
row none "--encodings: 'all' stands for every name and takes no others beside it" compare --encodings all,rope --out @OUT
row none "--random-positions: encoding cyclic does not take randomized positions" train --encoding cyclic --random-positions 512 --out @OUT
row none "--random-positions 64 must exceed every training and evaluation length: the longest is 128; choose N > 128" train --task order --random-positions 64 --out @OUT
row none "--random-positions-eval needs --random-positions N" train --random-positions-eval --out @OUT
row none "--random-positions must be >= 0 (0 = off), got -3" train --random-positions -3 --out @OUT
row none "--pe-max-len 16 is below the training max_len 32" train --encoding learned --pe-max-len 16 --out @OUT
row none "--pe-max-len must be >= 0" train --encoding learned --pe-max-len -1 --out @OUT
row none "t5: --t5-buckets must be even and >= 4" train --encoding t5 --t5-buckets 3 --out @OUT
row none "--rbf-sigma must be >= 0" train --encoding rbf --rbf-sigma -1 --out @OUT
# Tasks.
row none "min_len 40 > max_len 20" train --min-len 40 --max-len 20 --out @OUT
row none "order: min_len must be >= 2" train --task order --min-len 1 --max-len 8 --out @OUT
row none "shift: min_len 8 must be > k = 10" train --task shift --min-len 8 --max-len 20 --out @OUT
row none "shift: min_len 16 must be > k = 16" train --task shift --k 16 --out @OUT
row none "shift: k must be >= 0" train --task shift --k -1 --out @OUT
row none "periodic: min_len 10 must be >= 2 * p_max = 16" train --task periodic --min-len 10 --out @OUT
row none "periodic: min_len 16 must be >= 2 * p_max = 20" train --task periodic --p-max 10 --out @OUT
row none "periodic: p_min 6 > p_max 3" train --task periodic --p-min 6 --p-max 3 --out @OUT
row none "periodic: mask_rate must be in (0, 1)" train --task periodic --mask-rate 1.5 --out @OUT
row none "order: vocab (the number of filler tokens) must be >= 1" train --task order --vocab 0 --out @OUT
row none "order: gap must be >= 0" train --task order --gap -1 --out @OUT
row none "order: --gap 12 does not fit --min-len 8" train --task order --gap 12 --out @OUT
row none "order: gap 40 does not fit" train --task order --gap 40 --out @OUT
row none "shift: evaluation length 5 is too short" train --task shift --eval-lens 5 --out @OUT
row none "--eval-lens: lengths must be positive" train --eval-lens 64,-1 --out @OUT
row none "--eval-lens: length 128 is listed twice" train --eval-lens 64:256:64,128 --out @OUT
row none "--eval-lens: the range 512:64:64 runs backwards" train --eval-lens 512:64:64 --out @OUT
row none "is neither a number nor a range FROM:TO:STEP" train --eval-lens 64:512 --out @OUT
# Config files.
row inputs "--config: cannot read @IN/missing.conf" train --config @IN/missing.conf --out @OUT
row inputs "@IN/binary.conf:2: byte 0x00 is not text" train --config @IN/binary.conf --out @OUT
row inputs "@IN/long_line.conf:2: the line is 5004 characters long; a settings line is at most 4096" train --config @IN/long_line.conf --out @OUT
row inputs "@IN/huge.conf is 2000000 bytes; a settings file is at most 1048576 bytes" train --config @IN/huge.conf --out @OUT
row none "--config: /dev/zero is not a regular file" train --config /dev/zero --out @OUT
row inputs "unknown setting 'learning_rate'" train --config @IN/bom_unknown.conf --out @OUT
row inputs "is a directory" train --config @IN --out @OUT
row inputs "unknown_key.conf:4: unknown setting 'learning_rate' (settings are named as the flags without --; see ordo train --help)" train --config @IN/unknown_key.conf --out @OUT
row inputs "bad_value.conf:3: --lr expects a finite number, got 'fast'" train --config @IN/bad_value.conf --out @OUT
row inputs "no_equals.conf:2: expected 'key = value', got 'batch'" train --config @IN/no_equals.conf --out @OUT
row inputs "repeated.conf:3: 'steps' is already set on line 1" train --config @IN/repeated.conf --out @OUT
row inputs "--steps must be positive, got 0" train --config @IN/zero_steps.conf --out @OUT
row inputs "--d-model 30 is not divisible by --heads 4" train --config @IN/indivisible.conf --out @OUT
row inputs "--steps must be positive, got 0" train --config @IN/empty.conf --steps 0 --out @OUT
# Output directories, checkpoints, resuming.
row none "--ckpt-every must be >= 0, got -1" train --ckpt-every -1 --out @OUT
row none "--ckpt-every expects a whole number, got 'often'" train --ckpt-every often --out @OUT
row none "--ckpt-minutes must be >= 0 (0 = off), got -1" train --ckpt-minutes -1 --out @OUT
row none "--ckpt-minutes expects a finite number, got 'inf'" train --ckpt-minutes inf --out @OUT
row none "--ckpt-minutes must be >= 0 (0 = off), got -2" compare --ckpt-minutes -2 --out @OUT
row none "--resume: no checkpoint at" train --resume --out @OUT
row none "--resume and --force contradict each other" train --resume --force --out @OUT
row garbage_ckpt "checkpoint.h5: not an HDF5 file" train --resume --out @OUT
row truncated_ckpt "checkpoint.h5" train --resume --out @OUT
row finished_run "already holds a run; pass --resume to continue it, --force to replace it" train "${tiny[@]}" --steps 2 --out @OUT
row finished_run "checkpoint: it was trained with --d-model 16, this run has --d-model 32" train --resume --d-model 32 --out @OUT
row finished_run "checkpoint: it was trained with --steps 2, this run has --steps 1" train --resume --steps 1 --out @OUT
row inputs "--out @IN/ckpt.h5 exists and is not a directory" train --out @IN/ckpt.h5
row inputs "--out: cannot create @IN/ckpt.h5/sub: @IN/ckpt.h5 is not a directory" train --out @IN/ckpt.h5/sub

# Settings too large for the memory (train/memory.h): refused at once (the row's timeout is
# 60 s; each took 0.07 s), with the need, the memory available and what to lower. The memory
# is pinned to 4 GB so that the rows hold on any machine.
export ORDO_MEMORY_AVAILABLE=4000000000
row none "one training step 36 GB (--batch 64 x length 100000 in --micro-batches 2)" train --max-len 100000 --batch 64 --out @OUT
row none "more than the 4.0 GB available" train --max-len 100000 --batch 64 --out @OUT
row none "one evaluation batch 7.6 GB (length 1000000)" train --eval-lens 1000000 --out @OUT
row none "model, gradients and optimizer state 8.0 GB (--layers 10000" train --layers 10000 --out @OUT
row none "for the model of 2 layers alone (--d-model 65536" train --d-model 65536 --out @OUT
row none "order/none/seed0: these settings need about" compare --tasks order --encodings none --max-len 20000 --out @OUT
unset ORDO_MEMORY_AVAILABLE

# The other commands (those registered in `ordo --help`).
has_command() { "$ordo" --help | grep -q "^  $1 "; }
if has_command bench; then
  row none "unknown benchmark configuration 'huge'; known: tiny, base, long" bench --configs huge
  row none "--min-seconds must be >= 0" bench --configs tiny --min-seconds -1
  row none "unknown flag --out" bench --out @OUT
fi
# A finished tiny study, for the rows that resume it under another protocol.
tiny_grid=(--tasks shift --encodings none --seeds 1 --d-model 16 --heads 2 --layers 1 --d-ff 16 --batch 4 --eval-batch 64
           --steps 2 --quiet)
if has_command compare && ! "$ordo" compare "${tiny_grid[@]}" --out "$fix/study" >"$fix/compare.log" 2>&1; then
  echo "FAIL: could not make the fixture study:"; cat "$fix/compare.log"; exit 1
fi
if has_command compare; then
  row none "--tasks: unknown name 'sorting'; known: order, shift, periodic, copy, reverse, sort, flipflop, recall" compare --tasks sorting --out @OUT
  row none "--encodings: unknown name 'sinus'; known: none, sinusoidal" compare --encodings sinus --out @OUT
  row none "--steps must be positive" compare --steps 0 --out @OUT
  row none "--d-model 30 is not divisible by --heads 4" compare --d-model 30 --heads 4 --out @OUT
  row none "unknown flag --bogus" compare --bogus --out @OUT
  row none "--task-steps: 'shift' is not a task of this grid; its tasks: order" compare --tasks order --task-steps shift=30 --out @OUT
  row none "--task-steps: 'order' is not task=steps (e.g. order=1200)" compare --task-steps order --out @OUT
  row none "--vary: 'causal' is not KEY=V1,V2,..." compare --vary causal --out @OUT
  row none "--vary needs a value: KEY=V1,V2,..." compare --out @OUT --vary
  row none "--vary: task is an axis of its own; use --tasks" compare --vary task=order,shift --out @OUT
  row none "--vary: unknown setting 'bogus'" compare --vary bogus=1,2 --out @OUT
  row none "--vary causal: give at least two values" compare --vary causal=true --out @OUT
  row none "--vary layers: '1' listed twice" compare --vary layers=1,1 --out @OUT
  row none "--vary: layers varied twice" compare --vary layers=1,2 --vary=layers=3,4 --out @OUT
  row none "--causal is both given and varied" compare --causal --vary causal=false,true --out @OUT
  # Budgets by outcome and learning-rate sweeps (docs/spec.md §5.5, §7.6).
  row none "--lrs: 'fast' is not a number; accepted: two or more positive rates" compare --lrs 1e-3,fast --out @OUT
  row none "--lrs: -1e-3 is not positive; accepted: two or more positive rates" compare --lrs 3e-4,-1e-3 --out @OUT
  row none "--lrs: 0 is not positive" compare --lrs 0,1e-3 --out @OUT
  row none "--lrs: 1 rate given (one rate is a plain --lr)" compare --lrs 1e-3 --out @OUT
  row none "--lrs: '0.001' is a rate listed already (the same number)" compare --lrs 1e-3,0.001 --out @OUT
  row none "--lrs: 0 rate given (one rate is a plain --lr)" compare --lrs "" --out @OUT
  row none "--steps and --max-steps name one setting" compare --steps 100 --max-steps 200 --out @OUT
  row none "--steps and --max-steps name one setting" train --until-learned --max-steps 200 --steps 100 --out @OUT
  row none "--steps is both given and varied" compare --max-steps 200 --vary steps=100,300 --out @OUT
  row none "--patience needs --until-learned" train --patience 5000 --out @OUT
  row none "--lrs sweeps the learning rate, so --lr has no meaning beside it" compare --lr 1e-3 --lrs 3e-4,1e-3 --out @OUT
  row none "--lrs and --vary lr=... both sweep the learning rate" compare --vary lr=1,2 --lrs 3e-4,1e-3 --out @OUT
  row none "--lr-seeds chooses among learning rates, and this study sweeps none; add --lrs" compare --lr-seeds 1 --out @OUT
  row none "--lr-seeds 3 must be below --seeds 3 (the seeds the chosen rate trains in all); accepted: 1 to 2" \
    compare --lrs 3e-4,1e-3 --lr-seeds 3 --out @OUT
  row none "--lr-seeds and --kept-seeds both add seeds after the first round; give one of them" \
    compare --lrs 3e-4,1e-3 --lr-seeds 1 --kept-seeds 2 --out @OUT
  row none "--lr-seeds must be >= 0 (0 = off), got -1" compare --lrs 3e-4,1e-3 --lr-seeds -1 --out @OUT
  row none "--learned-at must be in (0, 1], got 1.5" compare --until-learned --learned-at 1.5 --out @OUT
  row none "--learned-at must be in (0, 1], got 0" train --until-learned --learned-at 0 --out @OUT
  row none "--patience 5000 is longer than the maximum, --steps 2000" train --until-learned --patience 5000 --out @OUT
  row none "--patience 4000 is longer than the maximum, --steps 3000" compare --until-learned --max-steps 3000 --patience 4000 --out @OUT
  row none "--patience 100 is shorter than --eval-every 250" train --until-learned --patience 100 --out @OUT
  row none "--until-learned needs --eval-every > 0" train --until-learned --eval-every 0 --out @OUT
  row none "--patience needs --until-learned" train --patience 500 --out @OUT
  row none "--learned-at needs --until-learned" compare --learned-at 0.9 --out @OUT
  row none "--max-steps expects a whole number, got 'lots'" train --until-learned --max-steps lots --out @OUT
  row finished_study "was run with --until-learned false, this command has --until-learned true; resume with the same protocol" \
    compare "${tiny_grid[@]}" --until-learned --resume --out @OUT
  row finished_study "was run with no --vary or --lrs, this command has --vary lr=1e-3,3e-4" \
    compare "${tiny_grid[@]}" --lrs 1e-3,3e-4 --resume --out @OUT
  row none "order/none/layers=x/seed0: --layers expects" compare --tasks order --vary layers=1,x --out @OUT
  row none "--task-steps: order needs at least 1 step, got 0" compare --task-steps order=0 --out @OUT
  row none "--task-steps: 'order' listed twice" compare --task-steps order=5,order=6 --out @OUT
fi
if has_command evaluate; then
  row none "--checkpoint" evaluate
  row inputs "not an HDF5 file" evaluate --checkpoint @IN/garbage.h5
fi
if has_command analyze; then
  row none "--checkpoint" analyze --out @OUT
  row inputs "not an HDF5 file" analyze --checkpoint @IN/garbage.h5 --out @OUT
  row inputs "--task sort: the checkpoint was trained on 'shift'" analyze --checkpoint @IN/ckpt.h5 --task sort --out @OUT
fi
if has_command inspect-pe; then
  row none "unknown encoding 'sinus'" inspect-pe sinus --out @OUT
  row none "is odd" inspect-pe rope --d 12 --heads 4 --out @OUT
fi
if has_command demo; then
  row none "unknown flag --bogus" demo --bogus --out @OUT
fi

# ---- and the good path of --config: the file applies, flags override it ------------------
attr() { h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *"\(.*\)".*/\1/p'; }
good=$root/good
mkdir -p "$good"
printf '# tiny shift run\ntask = shift   # the task\nd-model = 16\nheads = 2\nlayers = 1\nd-ff = 16\n' >"$good/tiny.conf"
printf 'batch = 4\neval-batch = 64\nsteps = 10\ncausal = true\n--quiet = true\n' >>"$good/tiny.conf"
if "$ordo" train --config "$good/tiny.conf" --steps 2 --out "$good/out" >"$root/stdout" 2>"$root/stderr" &&
   [[ ! -s $root/stdout ]] && [[ $(attr "$good/out/run.h5" d-model) == 16 ]] &&
   [[ $(attr "$good/out/run.h5" steps) == 2 ]] && [[ $(attr "$good/out/run.h5" causal) == true ]] &&
   [[ $(attr "$good/out/run.h5" task) == shift ]]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: --config FILE with a flag on top did not train with the file's settings and the flag's --steps 2"
  cat "$root/stderr"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
