#!/usr/bin/env bash
# tests/shell/test_export.sh: `ordo export DIR` writes the tidy table of a study (and of one
# run), read back by Python's csv and json modules and, where python3-pandas is installed
# (./run test installs it), by the one-liners docs/outputs.md gives; bad input exits 2 and a
# damaged results.h5 exits non-zero, writing nothing.
# Usage: bash test_export.sh <ordo> <ordo_tests>.
set -euo pipefail
ordo=${1:?usage: test_export.sh <ordo> <ordo_tests>}
dir=$(mktemp -d /tmp/ordo_export_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
fail() { echo "FAIL: $*"; exit 1; }

model=(--seeds 1 --steps 20 --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 --eval-every 10 --eval-batch 64)
out=$dir/grid
"$ordo" compare --tasks order,shift --encodings none,rope "${model[@]}" --lrs 1e-3,3e-3 --out "$out" --quiet ||
  fail "compare exited $?"
"$ordo" export "$out" >"$dir/export.log" || fail "export exited $?"
grep -q "8 run(s) from $out/results.h5" "$dir/export.log" || { cat "$dir/export.log"; fail "export's summary line"; }
[[ -s $out/tidy.csv && -s $out/tidy.jsonl ]] || fail "tidy.csv or tidy.jsonl missing"

# The same rows in both files; the columns and counts the layout promises; the evaluation
# accuracies equal the summary's.
python3 - "$out" <<'PY'
import csv, json, math, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/tidy.csv", newline="")))
lines = [json.loads(l) for l in open(f"{d}/tidy.jsonl")]
assert len(rows) == len(lines) > 0, (len(rows), len(lines))
cols = list(rows[0].keys())
assert cols[:4] == ["task", "encoding", "variant", "seed"], cols
assert cols[-9:] == ["stop_reason", "stop_step", "wall_seconds", "kind", "eval_set", "step", "metric", "distance", "value"], cols
assert "lr" in cols, "the swept learning rate is a column"
assert "d-model" not in cols, "a setting shared by every run is not (without --all-settings)"
assert list(lines[0].keys()) == cols
runs = {(r["task"], r["encoding"], r["lr"], r["seed"]) for r in rows}
assert len(runs) == 8, runs
for r, j in zip(rows, lines):
    assert r["task"] == j["task"] and int(r["step"]) == j["step"] and r["metric"] == j["metric"]
    if r["value"] == "":
        assert j["value"] is None
    else:
        assert float(r["value"]) == j["value"], (r, j)
train = [r for r in rows if r["kind"] == "train"]
assert {r["metric"] for r in train} == {"train_loss", "lr", "wall_time"}
per_run_steps = {}
for r in train:
    if r["metric"] == "train_loss":
        per_run_steps.setdefault((r["task"], r["encoding"], r["lr"]), []).append(int(r["step"]))
assert all(s == list(range(1, 21)) for s in per_run_steps.values()), per_run_steps
evals = [r for r in rows if r["kind"] == "eval"]
assert {r["eval_set"] for r in evals} >= {"train", "64", "128"}, {r["eval_set"] for r in evals}
assert all(0 <= float(r["value"]) <= 1 for r in evals if r["metric"] == "acc")
assert any(r["metric"] == "acc_by_distance" and r["distance"] != "" for r in evals if r["task"] == "order")
assert isinstance(lines[0]["lr"], float) and isinstance(lines[0]["seed"], int)
print(f"csv and jsonl agree: {len(rows)} rows, {len(cols)} columns")
PY

# The documented pandas lines (docs/outputs.md, "Export").
if /usr/bin/python3 -c "import pandas" 2>/dev/null; then
  /usr/bin/python3 - "$out" <<'PY'
import sys
import pandas as pd
d = sys.argv[1]
df = pd.read_csv(f"{d}/tidy.csv")
dj = pd.read_json(f"{d}/tidy.jsonl", lines=True)
assert df.shape == dj.shape, (df.shape, dj.shape)
acc = df[(df.kind == "eval") & (df.metric == "acc")]
last = acc[acc.step == acc.groupby(["task", "encoding", "lr", "seed"]).step.transform("max")]
final = last.groupby(["task", "encoding", "lr", "eval_set"]).value.agg(["mean", "min", "max"])
assert len(final) == 2 * 2 * 2 * 3 and (last.step == 20).all(), final
assert df.value.isna().sum() == dj.value.isna().sum()
print(f"pandas reads both: {df.shape}")
PY
else
  echo "note: no python3-pandas: the pandas one-liners are not run (apt-get install python3-pandas)"
fi

# One run of ordo train: its run.h5, and --format, --all-settings.
"$ordo" train --task shift --encoding rope --steps 10 --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 \
  --eval-every 5 --eval-batch 64 --out "$dir/one" >/dev/null || fail "train exited $?"
"$ordo" export "$dir/one" --format csv --all-settings --quiet || fail "export of a run exited $?"
[[ -s $dir/one/tidy.csv && ! -e $dir/one/tidy.jsonl ]] || fail "--format csv wrote $(ls "$dir/one")"
head -1 "$dir/one/tidy.csv" | grep -q ',d-model,' || fail "--all-settings: no d-model column"

# ---- bad input: exit 2, nothing written ----
expect() {
  local want=$1 rc=0
  shift
  "$ordo" "$@" >"$dir/err.log" 2>&1 || rc=$?
  [[ $rc -eq $want ]] || { cat "$dir/err.log"; fail "ordo $* exited $rc, expected $want"; }
}
expect 2 export
grep -q "ordo export DIR" "$dir/err.log" || fail "no-directory message"
expect 2 export "$dir/nowhere"
grep -q "is not a directory" "$dir/err.log" || fail "missing-directory message"
mkdir "$dir/empty"
expect 2 export "$dir/empty"
grep -q "neither .*results.h5 nor .*run.h5" "$dir/err.log" || fail "empty-directory message"
expect 2 export "$out" --format xml
grep -q "accepted: csv, jsonl, csv,jsonl" "$dir/err.log" || fail "unknown-format message"
# A damaged results file: one clear error, non-zero, no table written.
mkdir "$dir/damaged"
head -c 3000 "$out/results.h5" >"$dir/damaged/results.h5"
rc=0
"$ordo" export "$dir/damaged" >"$dir/err.log" 2>&1 || rc=$?
[[ $rc -ne 0 ]] || fail "a truncated results.h5 was exported"
grep -q "cannot read $dir/damaged/results.h5" "$dir/err.log" || { cat "$dir/err.log"; fail "damaged-file message"; }
[[ $(ls "$dir/damaged") == results.h5 ]] || fail "a damaged file left $(ls "$dir/damaged")"
echo "PASS: export of a study and of a run, read back; bad input refused"
