#!/usr/bin/env bash
# tests/shell/test_huang_compare.sh: docs/results/huang/compare.py puts Huang et al.'s runs
# (theirs.csv, extracted from their result files) beside an ordo study of run.sh's protocol:
# their means over kept runs as their files print them, ordo's rows from results.h5 with the
# bins 51-100 and 101-150 averaged over their lengths. Usage: bash test_huang_compare.sh
# <ordo> <ordo_tests>. Skipped with a message without a python3 that has h5py.
set -euo pipefail
ordo=${1:?usage: test_huang_compare.sh <ordo> <ordo_tests>}
here=$(cd "$(dirname "$0")/../.." && pwd)
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c "import h5py" 2>/dev/null; then python=$candidate; break; fi
done
if [[ -z $python ]]; then echo "SKIP: no python3 with h5py (apt-get install python3-h5py)"; exit 0; fi
dir=$(mktemp -d /tmp/ordo_huang_compare_XXXXXX)
trap 'rm -rf "$dir"' EXIT

# run.sh's flags at a toy size: 40 steps, tiny sets, the bins as length sweeps.
"$ordo" compare --tasks bin_majority --encodings none,learned --random-offset 154 --layers 1 --heads 1 --d-model 16 \
  --d-ff 64 --causal --tie-embeddings --scale-output-init --schedule linear --warmup 0 --batch 16 --same-length=false \
  --steps 40 --until-learned --learned-at 1.0 --learned-evals 1 --eval-every 20 --eval-train-sequences 32 \
  --eval-lens 100,150 --eval-sequences 2 --eval-lens-final 51:150:1 --seeds 2 --train-seed 42 --eval-sets-per-seed \
  --quiet --out "$dir/study" >/dev/null
"$python" "$here/docs/results/huang/compare.py" "$dir/study" >"$dir/comparison.md"

fail() { echo "FAIL: $1"; cat "$dir/comparison.md"; exit 1; }
# Their numbers, as their bin_majority-average.txt prints the means (1.0000, 0.9999, 0.9996) and
# majority-average-nope.txt keeps 5 of 16.
grep -qF '| bin_majority | ape | Huang et al. | 5 / 5 | 1.0000 | 0.9999 | 0.9996 | 3000 |' "$dir/comparison.md" ||
  fail "their bin_majority APE row"
grep -qF '| bin_majority | nope | Huang et al. | 5 / 5 | 1.0000 | 1.0000 | 1.0000 | 3000 |' "$dir/comparison.md" ||
  fail "their bin_majority NoPE row"
# Ours: one row per cell, every run listed with its bins recomputed here from results.h5.
grep -qE '^\| bin_majority \| ape \| ordo \(learned\) \| [0-2] / 2 \|' "$dir/comparison.md" || fail "our APE row"
grep -qE '^\| bin_majority \| nope \| ordo \(none\) \| [0-2] / 2 \|' "$dir/comparison.md" || fail "our NoPE row"
"$python" - "$dir" <<'PY'
import re, sys, h5py
d = sys.argv[1]
rows = [l for l in open(f"{d}/comparison.md") if re.match(r"\| bin_majority \| (ape|nope) \| \d+ \|", l)]
assert len(rows) == 4, rows
with h5py.File(f"{d}/study/results.h5") as f:
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        enc = {"ape": "learned", "nope": "none"}[cells[1]]
        ev = f[f"runs/bin_majority/{enc}/seed{cells[2]}/eval"]
        last = ev["step"][()].max()
        final = {int(n): e for n, s, e in zip(ev["length"][()], ev["step"][()], ev["exact"][()]) if s == last}
        for text, (lo, hi) in zip(cells[6:8], [(51, 100), (101, 150)]):
            want = sum(final[n] for n in range(lo, hi + 1)) / (hi - lo + 1)
            assert abs(float(text) - want) < 5e-5, (row, want)
        assert abs(float(cells[5]) - final[0]) < 5e-5, (row, final[0])
print("per-run bins: ok")
PY
# The learned table is their APE only at random offsets: at offset 0 (and sinusoidal, which
# takes the offsets too) a row names what it is, and no Huang et al. row stands beside it.
common=(--tasks bin_majority --layers 1 --heads 1 --d-model 16 --d-ff 64 --causal --tie-embeddings --batch 16
        --same-length=false --steps 20 --eval-every 20 --eval-train-sequences 8 --eval-lens 100 --eval-sequences 1
        --eval-lens-final 51:150:1 --seeds 1 --quiet)
"$ordo" compare "${common[@]}" --encodings learned --out "$dir/offset0" >/dev/null
"$ordo" compare "${common[@]}" --encodings sinusoidal --random-offset 154 --out "$dir/sinusoidal" >/dev/null
"$python" "$here/docs/results/huang/compare.py" "$dir/offset0" "$dir/sinusoidal" >"$dir/comparison.md"
grep -qE '^\| bin_majority \| learned, offset 0 \| ordo \(learned\) \| [0-1] / 1 \|' "$dir/comparison.md" ||
  fail "the learned table at offset 0 named as such"
grep -qE '^\| bin_majority \| sinusoidal, random offsets \| ordo \(sinusoidal\) \|' "$dir/comparison.md" ||
  fail "sinusoidal at random offsets named as such"
! grep -q 'Huang et al. |' "$dir/comparison.md" || fail "a Huang et al. row beside cells that are not theirs"
echo "test_huang_compare: ok"
