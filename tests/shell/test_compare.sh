#!/usr/bin/env bash
# tests/shell/test_compare.sh: `ordo compare` on a tiny grid writes every artefact with the
# right layout, refuses to overwrite, resumes by skipping; `ordo analyze` and `ordo
# inspect-pe` write their files; bad flags exit 2 and write nothing.
# Usage: bash test_compare.sh <ordo> <ordo_tests>. Needs h5ls (hdf5-tools); PNGs are checked
# only when gnuplot is installed.
set -euo pipefail
ordo=${1:?usage: test_compare.sh <ordo> <ordo_tests>}
dir=$(mktemp -d /tmp/ordo_compare_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
fail() { echo "FAIL: $*"; exit 1; }
command -v h5ls >/dev/null || fail "h5ls not found (apt-get install hdf5-tools)"

model=(--seeds 1 --steps 30 --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 --eval-every 10 --eval-batch 64)
tiny=(--tasks order,shift --encodings none,rope "${model[@]}")
out=$dir/grid

# ---- bad input: exit 2, nothing written ----
expect2() {
  local rc=0
  "$ordo" "$@" >"$dir/err.log" 2>&1 || rc=$?
  [[ $rc -eq 2 ]] || { cat "$dir/err.log"; fail "ordo $* exited $rc, expected 2"; }
}
expect2 compare "${model[@]}" --tasks order --encodings none,bogus --out "$out"
grep -q "unknown name 'bogus'; known: none, sinusoidal" "$dir/err.log" || fail "unknown encoding message"
expect2 compare "${model[@]}" --encodings rope --tasks order,nope --out "$out"
expect2 compare --seeds 0 --out "$out"
expect2 compare "${tiny[@]}" --out "$out" --heads 3          # 16 not divisible by 3: caught before DIR
expect2 compare "${tiny[@]}" --out "$out" --task order
expect2 compare "${tiny[@]}" --out "$out" --no-such-flag 1
[[ ! -e $out ]] || fail "bad input created $out"

# ---- the grid ----
"$ordo" compare "${tiny[@]}" --out "$out" --quiet || fail "compare exited $?"
[[ -s $out/results.h5 && -s $out/summary.md ]] || fail "results.h5 or summary.md missing"
layout=$(h5ls -r "$out/results.h5")
for task in order shift; do
  for enc in none rope; do
    for want in "/runs/$task/$enc/seed0/train_loss" "/runs/$task/$enc/seed0/step" \
                "/runs/$task/$enc/seed0/eval/acc" "/runs/$task/$enc/seed0/wall_time"; do
      grep -q "^$want " <<<"$layout" || { echo "$layout"; fail "results.h5 lacks $want"; }
    done
    [[ -s $out/checkpoints/$task/$enc/seed0.h5 ]] || fail "checkpoint $task/$enc missing"
  done
  for kind in curves lengths; do
    for ext in dat gp; do [[ -s $out/plots/${task}_$kind.$ext ]] || fail "plots/${task}_$kind.$ext missing"; done
    if command -v gnuplot >/dev/null; then
      for ext in png svg; do
        [[ -s $out/plots/${task}_$kind.$ext ]] || fail "plots/${task}_$kind.$ext missing (gnuplot is installed)"
      done
    fi
  done
done
if command -v gnuplot >/dev/null; then
  [[ -s $out/plots/overview.png && -s $out/plots/overview.svg ]] || fail "plots/overview.png or .svg missing"
  # At least 1200 px wide (PNG header: width at bytes 16-19).
  width=$(od -An -tu1 -j16 -N4 "$out/plots/order_curves.png" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}')
  [[ $width -ge 1200 ]] || fail "order_curves.png is $width px wide, not >= 1200"
  # Names drawn as written: no enhanced text (where kerple_log would lose its underscore).
  grep -q 'noenhanced' "$out/plots/order_curves.gp" || fail "order_curves.gp draws enhanced text"
fi
[[ -s $out/report.html ]] || fail "report.html missing"
! grep -qiE '<(script|link|img)[^>]+(src|href)="(https?:)?//' "$out/report.html" || fail "report.html loads something from the network"
h5dump -d /runs/order/rope/seed0/eval/length "$out/results.h5" | grep -q ' 64' || fail "no 2x evaluation in results.h5"
# Accuracy by distance (docs/spec.md §3.9): order records it, shift has no distance.
grep -q '^/runs/order/rope/seed0/by_distance/64/acc  *Dataset {4, 64}' <<<"$layout" ||
  fail "results.h5 lacks order's by_distance/64/acc (4 evaluations x distances 0-63)"
! grep -q '^/runs/shift/.*by_distance' <<<"$layout" || fail "shift has no distance, but results.h5 has by_distance"
[[ -s $out/plots/order_distance.dat && ! -e $out/plots/shift_distance.dat ]] || fail "plots/order_distance.dat (and no shift one) expected"
for want in '^!\[overview' '^## order' '^## shift' '^| [0-9] | none |' '^| [0-9] | rope |' '^| # | encoding |' \
            '^- Solved by' '^- At chance (0.500): '; do
  grep -q "$want" "$out/summary.md" || { cat "$out/summary.md"; fail "summary.md lacks $want"; }
done
# One 'none' row per table: each task's table, and its table over the learned runs where some
# seeds did not learn (none never does).
[[ $(grep -c '^| [0-9] | none |' "$out/summary.md") -eq $(grep -c '^| # | encoding |' "$out/summary.md") ]] ||
  fail "expected one 'none' row per table"

# ---- ordo report: the figures, summary.md and report.html again from results.h5 alone ----
cp "$out/summary.md" "$dir/summary.before"
rm -rf "$out/plots" "$out/summary.md" "$out/report.html"
"$ordo" report "$out" --quiet || fail "ordo report exited $?"
[[ -s $out/report.html && -s $out/plots/order_curves.dat ]] || fail "ordo report did not write report.html and plots"
# The same summary.md, but the line that says how long the grid took in its session.
diff <(grep -v 'grid wall time\|wall times add up' "$dir/summary.before") <(grep -v 'wall times add up' "$out/summary.md") ||
  fail "ordo report's summary.md differs from compare's"
expect2 report "$dir/nowhere"
grep -q "is not a directory" "$dir/err.log" || fail "ordo report on a missing directory: message"
mkdir -p "$dir/empty"
expect2 report "$dir/empty"
grep -q "results.h5 not found" "$dir/err.log" || fail "ordo report without results.h5: message"
# (a results.h5 of another format_version: tests/report/test_html_report.cpp)

# ---- runs in parallel (--jobs, default one per OpenMP thread) give the same numbers as one at
# a time: every dataset and attribute of results.h5 but the wall times, bit for bit ----
source "$(dirname "$0")/lib/h5_numbers.sh"
"$ordo" compare "${tiny[@]}" --out "$dir/one" --jobs 1 --quiet || fail "compare --jobs 1 exited $?"
[[ $(h5_numbers "$dir/one/results.h5" | wc -l) -gt 100 ]] || fail "h5_numbers: results.h5 dump too short"
diff <(h5_numbers "$out/results.h5") <(h5_numbers "$dir/one/results.h5") >"$dir/jobs.diff" ||
  { head "$dir/jobs.diff"; fail "--jobs 1 and --jobs 2 differ"; }
expect2 compare "${tiny[@]}" --out "$dir/bad" --jobs -1
grep -q -- "--jobs must be >= 0" "$dir/err.log" || fail "--jobs -1 message"

# ---- --task-steps: each task trains its own number of steps, and summary.md says so ----
"$ordo" compare --tasks order,shift --encodings none "${model[@]}" --task-steps order=20 --out "$dir/ts" --quiet ||
  fail "compare --task-steps exited $?"
ts=$(h5ls -r "$dir/ts/results.h5")
grep -q '^/runs/order/none/seed0/step  *Dataset {20}' <<<"$ts" || { echo "$ts"; fail "--task-steps order=20: order runs 20 steps"; }
grep -q '^/runs/shift/none/seed0/step  *Dataset {30}' <<<"$ts" || { echo "$ts"; fail "--task-steps: shift keeps --steps 30"; }
grep -q 'order 20, shift 30 steps per run' "$dir/ts/summary.md" || { cat "$dir/ts/summary.md"; fail "summary.md: per-task steps"; }

# ---- no silent overwrite; --resume skips ----
snapshot() { (cd "$out" && find . -type f | sort | xargs md5sum); }
before=$(snapshot)
expect2 compare "${tiny[@]}" --out "$out"
grep -q "already holds files; pass --resume" "$dir/err.log" || fail "overwrite refusal message"
[[ "$(snapshot)" == "$before" ]] || fail "a refused rerun changed $out"
expect2 compare "${tiny[@]}" --out "$out" --resume --steps 40   # other settings: refused
grep -q "steps" "$dir/err.log" || fail "settings mismatch message should name --steps"
[[ "$(snapshot)" == "$before" ]] || fail "a refused --resume changed $out"
resume_log=$("$ordo" compare "${tiny[@]}" --out "$out" --resume) || fail "--resume exited $?"
[[ $(grep -c "finished earlier, skipped" <<<"$resume_log") -eq 4 ]] || { echo "$resume_log"; fail "--resume did not skip 4 runs"; }
grep -q "0 run(s) trained, 4 skipped" <<<"$resume_log" || fail "--resume summary line"
[[ $(h5ls -r "$out/results.h5" | grep -c '/seed0 *Group') -eq 4 ]] || fail "results.h5 after --resume lacks runs"

# ---- a run that fails stops the grid: exit 1, the error names the run, and every run that
# was training (the failed one and the one beside it, --jobs 2) is in results.h5 ----
diverge=(--tasks shift --encodings none,rope --seeds 1 --steps 200 --d-model 16 --heads 2 --layers 1 --d-ff 32
         --batch 8 --eval-every 0 --eval-batch 64 --optimizer sgd --clip 0 --lr 10 --warmup 100 --jobs 2 --quiet)
rc=0
"$ordo" compare "${diverge[@]}" --out "$dir/diverge" >"$dir/err.log" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || { cat "$dir/err.log"; fail "a diverging grid exited $rc, expected 1"; }
grep -Eq "error: shift/(none|rope)/seed0: numerics: " "$dir/err.log" || { cat "$dir/err.log"; fail "the error does not name the run"; }
for enc in none rope; do
  h5ls -r "$dir/diverge/results.h5" | grep -q "^/runs/shift/$enc/seed0/train_loss " ||
    fail "results.h5 of the failed grid lacks shift/$enc (the runs that were training)"
done

# ---- analyze ----
ck=$out/checkpoints/order/rope/seed0.h5
table=$("$ordo" analyze --checkpoint "$ck" --len 16 --batch 4 --out "$dir/an") || fail "analyze exited $?"
grep -q '| layer | head | entropy | span mean | span max | mean distance |' <<<"$table" || { echo "$table"; fail "analyze table"; }
[[ $(grep -c '^| 0 | [01] |' <<<"$table") -eq 2 ]] || { echo "$table"; fail "analyze: one row per head expected"; }
an=$(h5ls -r "$dir/an/analysis.h5")
for want in '/layer0/attention .*{4, 2, 16, 16}' '/layer0/entropy ' '/layer0/span_mean ' '/layer0/span_max ' \
            '/layer0/distance ' '/tokens '; do
  grep -q "^$want" <<<"$an" || { echo "$an"; fail "analysis.h5 lacks $want"; }
done
[[ -s $dir/an/layer0_attention.gp && -s $dir/an/layer0_attention.dat ]] || fail "analyze heatmap files"
expect2 analyze --checkpoint "$dir/none.h5"
expect2 analyze --checkpoint "$ck" --task shift
expect2 analyze --checkpoint "$ck" --len 1

# ---- inspect-pe ----
"$ordo" inspect-pe sinusoidal --len 16 --d 8 --out "$dir/pe" --quiet || fail "inspect-pe exited $?"
[[ -s $dir/pe/similarity.dat && -s $dir/pe/similarity.gp ]] || fail "inspect-pe files"
[[ $(awk 'NR == 3 { print $1 }' "$dir/pe/similarity.dat") == 4 ]] || fail "sinusoidal S(0,0) should be d/2 = 4"
"$ordo" inspect-pe rope --len 16 --d 8 --heads 2 --out "$dir/pe-rope" --quiet || fail "inspect-pe rope"
# Without gnuplot: a clear message, data and script still written, exit 0.
PATH=/nonexistent "$ordo" inspect-pe alibi --len 8 --d 8 --heads 2 --out "$dir/pe-nognu" --quiet 2>"$dir/nognu.log" ||
  fail "inspect-pe without gnuplot exited $?"
grep -q "gnuplot not found on PATH" "$dir/nognu.log" || fail "no message when gnuplot is missing"
[[ -s $dir/pe-nognu/similarity.dat && -s $dir/pe-nognu/similarity.gp && ! -e $dir/pe-nognu/similarity.png ]] ||
  fail "without gnuplot: .dat and .gp expected, no .png"
expect2 inspect-pe bogus --len 16 --d 8 --out "$dir/pe-bad"
expect2 inspect-pe rope --len 16 --d 6 --heads 2 --out "$dir/pe-bad"   # odd head width
[[ ! -e $dir/pe-bad ]] || fail "bad inspect-pe input created its directory"
echo "compare/analyze/inspect-pe: ok"
