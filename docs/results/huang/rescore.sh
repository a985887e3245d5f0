#!/usr/bin/env bash
# docs/results/huang/rescore.sh: each finished run of a study scored again, its final checkpoint
# on the held-out training-range sets of other --eval-seed values (`ordo evaluate`), as CSV:
# how many of 2,000 sequences each set finds wrong. Under Huang et al.'s all-or-nothing rule it
# tells a seed that failed on its set from one whose model fails on any set (docs/spec.md §3.15).
#
#   bash docs/results/huang/rescore.sh STUDY_DIR FIRST_EVAL_SEED LAST_EVAL_SEED > rescore.csv
set -euo pipefail
study=${1:?usage: rescore.sh STUDY_DIR FIRST_EVAL_SEED LAST_EVAL_SEED}
first=${2:?first eval seed}
last=${3:?last eval seed}
ordo=${ORDO:-./build/ordo}
python=""
for candidate in python3 /usr/bin/python3; do  # one with h5py, to read a checkpoint's stop reason
  if command -v "$candidate" >/dev/null && "$candidate" -c "import h5py" 2>/dev/null; then python=$candidate; break; fi
done
[[ -n $python ]] || { echo "rescore.sh: needs a python3 with h5py (apt-get install python3-h5py)" >&2; exit 2; }
echo "task,encoding,seed,stop_reason,step,eval_seed,sequences,wrong"
for ck in "$study"/checkpoints/*/*/seed*.h5; do
  IFS=/ read -r task encoding file <<<"${ck#"$study"/checkpoints/}"
  seed=${file#seed}; seed=${seed%.h5}
  stop=$("$python" -c "import h5py,sys; a=h5py.File(sys.argv[1],'r')['log'].attrs.get('stop_reason',b''); print(a.decode() if isinstance(a,bytes) else a)" "$ck")
  [[ -n $stop ]] || continue  # still training: not a finished run
  for ((s = first; s <= last; ++s)); do
    line=$("$ordo" evaluate --checkpoint "$ck" --eval-seed "$s")
    [[ $line =~ step\ ([0-9]+),.*\(([0-9]+)\ of\ ([0-9]+)\ sequences\ wrong\) ]] || { echo "unexpected: $line" >&2; exit 1; }
    echo "$task,$encoding,$seed,$stop,${BASH_REMATCH[1]},$s,${BASH_REMATCH[3]},${BASH_REMATCH[2]}"
  done
done
