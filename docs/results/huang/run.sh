#!/usr/bin/env bash
# docs/results/huang/run.sh: Huang et al. 2025's algorithmic tasks at their protocol
# (docs/literature.md, "Huang et al. 2025"; docs/spec.md §3.15), APE (`learned` with random
# offsets) and NoPE (`none`), each task at their architecture and learning rate
# (lacoco-lab/length_generalization, algorithmic/run_multiple_seeds.py, task_arch).
#
#   bash docs/results/huang/run.sh OUT [STUDY...]     # e.g. OUT=runs/huang; default: every
#                                                     # study of the reproduction (not `beyond`)
#
# Seeds are tried until 5 runs of a cell learned (--kept-seeds 5, at most 20), as their
# run_multiple_seeds.py tries seeds until 5 are kept. Every study resumes where it stopped
# (--resume), so the script can be run again after an interruption. One run at a time on
# every thread (--jobs 1; JOBS=2 for two runs of one thread each): on the 2-core AVX-512 VM a
# sort APE run took 14.9 steps per second on two threads, where two runs side by side took
# about 5 each, and a session's machine keeps finished runs only, so a run that finishes
# sooner loses less when the session ends.
#
# CONTINUE=DIR (e.g. docs/results/huang): a study that OUT lacks starts from DIR/<study>/
# results.h5, whose finished runs are skipped (their records stand for the checkpoints this
# directory does not keep, docs/outputs.md): how a study committed in progress continues on a
# machine that lost its run directory.
set -euo pipefail
out=${1:?usage: run.sh OUT [STUDY...]}
shift
ordo=${ORDO:-./build/ordo}

# Their protocol: GPT-2 (pre-LN, tied lm_head, N(0, 0.02), c_proj scaled by 1/sqrt(2 layers),
# no dropout), AdamW (wd 0.01, clip 1), batch 64 of mixed lengths 1..50, linear decay to 0 over
# 30,000 steps without warmup, evaluated every 3,000, stopped at the first evaluation with every
# one of 2,000 held-out training-range sequences right; test bins 51-100 and 101-150 scored
# after the last step as length sweeps, 40 sequences per length (2,000 per bin). Their seeding:
# one training stream for every seed (their Trainer reseeds with 42), held-out sets drawn per
# seed (docs/spec.md §3.15).
common=(--causal --tie-embeddings --scale-output-init --schedule linear --warmup 0 --batch 64 --same-length=false
        --steps 30000 --until-learned --learned-at 1.0 --learned-evals 1 --eval-every 3000
        --eval-train-sequences 2000 --eval-lens 100,150 --eval-sequences 40 --eval-lens-final 51:150:1
        --seeds 5 --kept-seeds 5 --max-seeds 20 --train-seed 42 --eval-sets-per-seed
        --jobs "${JOBS:-1}" --ckpt-minutes 10 --quiet --resume)

# name task encoding layers heads d lr offset [more flags]
studies=(
  "bin_majority    bin_majority none,learned 1 1 16  1e-3 154"
  "majority-ape    majority     learned      1 2 256 1e-3 154"
  "majority-nope   majority     none         1 1 64  1e-3 0"
  "unique_copy-ape unique_copy  learned      2 1 64  1e-3 303"
  "sort-ape        unique_sort  learned      1 2 256 1e-4 303"
  "sort-nope       unique_sort  none         1 1 256 1e-3 0"
  "unique_copy-nope unique_copy none         4 4 256 1e-3 0"
)

# Beyond the paper (issue 52, point 3): every other ordo encoding at the APE architecture, as
# it is (no random offsets: `learned` with them is their APE, in the studies above). Run only
# when named: majority's runs at d = 256 take about an hour each on one core of the 2-core VM
# (5.4 steps/s), so the task list grows with the machine time (docs/literature.md says which
# ran).
others=sinusoidal,rope,alibi,t5,rbf,cyclic,fourier2d,kerple_log,kerple_power,fire,xpos,cope,fox,stickbreaking,pope,path,transformer_xl
# The table or the offsets: sinusoidal at offset 0 fails bin_majority past 50 where their APE
# (a learned table at random offsets) holds; the cells below cross the two (sinusoidal at
# random offsets; the learned table at offset 0, clamped past the training positions as
# ordo's default sizes it, and with their 154 rows, the rows past 50 never trained).
beyond=(
  "bin_majority-all bin_majority $others 1 1 16  1e-3 0"
  "bin_majority-sinusoidal-offsets bin_majority sinusoidal 1 1 16 1e-3 154"
  "bin_majority-learned-no-offsets bin_majority learned    1 1 16 1e-3 0"
  "bin_majority-learned-154-rows   bin_majority learned    1 1 16 1e-3 0 --pe-max-len 154"
  "majority-all     majority     $others 1 2 256 1e-3 0"
  "unique_copy-all  unique_copy  $others 2 1 64  1e-3 0"
  "sort-all         unique_sort  $others 1 2 256 1e-4 0"
)

# With no STUDY named: the reproduction (studies); beyond it only when named.
(($# > 0)) || set -- $(for line in "${studies[@]}"; do echo "${line%% *}"; done)
names=" $(for line in "${studies[@]}" "${beyond[@]}"; do echo -n "${line%% *} "; done)"
for study in "$@"; do
  [[ $names == *" $study "* ]] || { echo "run.sh: no study '$study'; known:$names" >&2; exit 2; }
done
for line in "${studies[@]}" "${beyond[@]}"; do
  read -r name task enc layers heads d lr offset more <<<"$line"
  if [[ ! " $* " == *" $name "* ]]; then continue; fi
  extra=()
  ((offset > 0)) && extra=(--random-offset "$offset")
  [[ -n $more ]] && read -r -a more_flags <<<"$more" && extra+=("${more_flags[@]}")
  if [[ -n ${CONTINUE:-} && -f $CONTINUE/$name/results.h5 && ! -e $out/$name/results.h5 ]]; then
    mkdir -p "$out/$name" && cp "$CONTINUE/$name/results.h5" "$out/$name/results.h5"
  fi
  echo "== $name: $(date -u +%FT%TZ)"
  "$ordo" compare --tasks "$task" --encodings "$enc" --layers "$layers" --heads "$heads" --d-model "$d" \
    --d-ff $((4 * d)) --lr "$lr" "${extra[@]}" "${common[@]}" --out "$out/$name"
  echo "== $name done: $(date -u +%FT%TZ)"
done
