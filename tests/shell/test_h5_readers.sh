#!/usr/bin/env bash
# tests/shell/test_h5_readers.sh: files ordo writes are read by h5dump and h5py, and a file
# h5py writes is read by ordo. Usage: bash test_h5_readers.sh <ordo> <ordo_tests>.
# h5dump is required (Debian package hdf5-tools); the h5py part is skipped with a message
# when no python3 with h5py is found.
set -euo pipefail
tests_bin=${2:?usage: test_h5_readers.sh <ordo> <ordo_tests>}
dir=$(mktemp -d /tmp/ordo_h5_readers_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export ORDO_H5_SAMPLE_DIR=$dir

"$tests_bin" "[h5_sample]" >"$dir/catch.log" 2>&1 || { cat "$dir/catch.log"; exit 1; }

# ---- h5dump ----
command -v h5dump >/dev/null || { echo "FAIL: h5dump not found (apt-get install hdf5-tools)"; exit 1; }
header=$(h5dump -H "$dir/runs.h5")
for want in 'GROUP "seed0"' 'DATASET "train_loss"' 'DATASET "wall_time"' 'GROUP "eval"' 'GROUP "train"' \
            'GROUP "128"' 'DATASET "acc"' 'ATTRIBUTE "wall_seconds"'; do
  grep -qF "$want" <<<"$header" || { echo "FAIL: h5dump -H runs.h5 lacks $want"; echo "$header"; exit 1; }
done
acc=$(h5dump -d /runs/order/rope/seed0/eval/train/acc "$dir/runs.h5")
grep -q '0\.5, 0\.75' <<<"$acc" || { echo "FAIL: eval/train/acc values"; echo "$acc"; exit 1; }
evals=$(h5dump -d /runs/order/rope/seed0/eval/acc "$dir/results.h5")
grep -q '0\.5, 1, 0\.75' <<<"$evals" || { echo "FAIL: results.h5 eval/acc values"; echo "$evals"; exit 1; }
ckpt=$(h5dump -A "$dir/ckpt.h5")
grep -qF 'ATTRIBUTE "format_version"' <<<"$ckpt" || { echo "FAIL: checkpoint attributes"; echo "$ckpt"; exit 1; }
h5dump -d '/params/blocks.0.attn.w_q.weight' "$dir/ckpt.h5" | grep -q 'DATASPACE  SIMPLE { ( 3, 4 )' ||
  { echo "FAIL: h5dump of a dotted parameter name"; exit 1; }
echo "h5dump: ok"

# ---- h5py (both directions) ----
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c "import h5py" 2>/dev/null; then python=$candidate; break; fi
done
if [[ -z $python ]]; then
  echo "SKIP: no python3 with h5py (apt-get install python3-h5py); h5dump checks passed"
  exit 0
fi
"$python" - "$dir" <<'PY'
import sys, math
import h5py, numpy as np
d = sys.argv[1]
with h5py.File(f"{d}/runs.h5", "r") as f:
    assert f.attrs["task"] == b"order", f.attrs["task"]  # fixed-length strings read as bytes
    run = f["runs/order/rope/seed0"]
    assert list(run["step"][:]) == [0, 100, 200, 300]
    assert list(run["train_loss"][:]) == [2.0, 1.5, 1.0, 0.5]
    assert list(run["eval/train/acc"][:]) == [0.5, 0.75]
    assert math.isnan(run["eval/train/exact"][1])
    assert list(run["eval/128/acc"][:]) == [0.625]
    assert run.attrs["wall_seconds"] == 3.5
with h5py.File(f"{d}/ckpt.h5", "r") as f:
    assert f.attrs["format_version"] == 1 and f.attrs["step"] == 300
    assert f["config"].attrs["encoding"].decode() == "rope"
    w = f["params/blocks.0.attn.w_q.weight"][:]
    assert w.dtype == np.float32 and w.shape == (3, 4)
    assert np.array_equal(w.ravel(), np.arange(12, dtype=np.float32) * np.float32(0.1))
    assert f["optimizer/m/blocks.0.attn.w_q.weight"].shape == (3, 4)
    assert f["rng"].shape == (1, 4) and int(f["rng"][0, 0]) == 2**64 - 1
    assert f["scalars"].attrs["adam_step"] == 300.0
    assert list(f["log/eval/train/acc"][:]) == [0.5, 0.75]
with h5py.File(f"{d}/results.h5", "r") as f:  # format 2, as docs/outputs.md reads it
    assert f.attrs["format_version"] == 2 and f.attrs["setting.lr"].decode() == "0.001"
    run = f["runs/order/rope/seed1"]
    assert run.attrs["setting.seed"].decode() == "1" and "setting.lr" not in run.attrs
    assert run.attrs["log_every"] == 2 and run["train_loss"].dtype == np.float32
    assert list(run["step"][:3]) == [2, 4, 6] and len(run["step"]) == 500
    assert list(run["train_loss"][:2]) == [0.75, 0.75]
    assert list(run["train_loss_min"][:2]) == [0.5, 0.5] and list(run["train_loss_max"][:2]) == [1.0, 1.0]
    assert list(run["eval/length"][:]) == [0, 0, 64] and list(run["eval/step"][:]) == [0, 1000, 1000]
    assert list(run["eval/acc"][:]) == [0.5, 1.0, 0.75] and run["eval/loss"][1] == 0.125
    assert math.isnan(run["eval/exact"][0])
with h5py.File(f"{d}/foreign.h5", "w") as f:
    f.attrs["fixed"] = np.bytes_("abc")
    f.attrs["variable"] = "déjà vu"
    f.attrs["count"] = np.int32(3)
    f.create_group("runs/alibi")
    r = f.create_group("runs/rope")
    r["step"] = np.array([0, 10], dtype=np.int64)
    r["train_loss"] = np.array([2.5, 1.5])
    r["lr"] = np.array([1e-3, 1e-3])
    r["wall_time"] = np.array([0.5, 1.0])
    r["eval/train/step"] = np.array([10], dtype=np.int32)
    r["eval/train/acc"] = np.array([0.5], dtype=np.float32)
    r["eval/64/step"] = np.array([0, 10])
    r["eval/64/acc"] = np.array([0.25, 0.75])
    r.attrs["wall_seconds"] = 2
    r["w"] = np.array([[1, 2], [3, 4]], dtype=np.float32)
print("h5py: reads ordo's files: ok")
PY
"$tests_bin" "[h5_foreign]" >"$dir/catch.log" 2>&1 || { cat "$dir/catch.log"; exit 1; }
echo "ordo: reads h5py's file: ok"
