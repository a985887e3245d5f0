#!/usr/bin/env python3
"""Huang et al. 2025's per-run results beside ordo's, as a Markdown table.

    python3 docs/results/huang/compare.py STUDY_DIR... > docs/results/huang/comparison.md

Each STUDY_DIR is an `ordo compare` directory of docs/results/huang/run.sh (its results.h5,
format 2, docs/spec.md §7.1). Their numbers come from theirs.csv beside this script: every run
line of lacoco-lab/length_generalization's algorithmic/lm-out-new-multi-run/<task>-average.txt
(APE) and <task>-average-nope.txt (NoPE) at commit b39b743, one row each, the file named in
the `source` column (README.md says how it was extracted).

Their accuracy is ordo's `exact` (docs/spec.md §3.15). A bin's accuracy is the mean of the
run's final `exact` over the bin's lengths (51-100, 101-150; the same count of sequences at
each length, so it is the share of the bin's sequences); 0-50 is the held-out training-range
set. A run is kept as theirs are: it stopped because every training-range sequence was right
(stop_reason `learned` under --learned-at 1.0 --learned-evals 1).
"""
import csv
import math
import os
import sys

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
THEIR_TASK = {"unique_sort": "sort", "lm_parity": "parity"}  # ordo's name -> theirs
THEIR_PE = {"learned": "ape", "none": "nope"}  # learned is their APE only at random offsets
BINS = [(51, 100), (101, 150)]


def read_runs(study):
    """Every run of STUDY/results.h5: task, encoding, seed, kept, steps, seconds, bin accuracies."""
    path = os.path.join(study, "results.h5")
    runs = []
    with h5py.File(path, "r") as f:
        root_steps = f.attrs.get("setting.steps")
        until_learned = f.attrs.get("setting.until-learned") in (b"true", "true")

        def visit(name, obj):
            if not isinstance(obj, h5py.Group) or "eval" not in obj:
                return
            parts = name.split("/")  # runs/<task>/<encoding>[/<variant>]/seed<k>
            ev = obj["eval"]
            length, step, exact = ev["length"][()], ev["step"][()], ev["exact"][()]
            last = step.max()
            final = {int(n): float(e) for n, s, e in zip(length, step, exact) if s == last}
            bins = []
            for lo, hi in BINS:
                values = [final[n] for n in range(lo, hi + 1) if n in final]
                bins.append(sum(values) / len(values) if len(values) == hi - lo + 1 else math.nan)
            stop = obj.attrs.get("stop_reason", b"")
            stop = stop.decode() if isinstance(stop, bytes) else str(stop)
            unfinished = until_learned and not stop  # a run still training when the study was stopped
            runs.append({
                "task": parts[1], "encoding": parts[2], "seed": int(parts[-1][4:]),
                "kept": stop == "learned", "stop": "unfinished" if unfinished else stop, "unfinished": unfinished,
                "steps": int(last) if unfinished else int(obj.attrs.get("stop_step", 0)) or int(root_steps or 0),
                "seconds": float(obj.attrs.get("wall_seconds", 0.0)),
                "acc": [final.get(0, math.nan)] + bins,
            })

        f.visititems(visit)
    return runs


def seeding(study):
    """How STUDY's seeds drew their data and held-out sets (docs/spec.md §3.15)."""
    with h5py.File(os.path.join(study, "results.h5"), "r") as f:
        def setting(name):
            value = f.attrs.get("setting." + name)
            return value.decode() if isinstance(value, bytes) else value
        train_seed, per_seed = setting("train-seed"), setting("eval-sets-per-seed")
    stream = (f"one training stream for every seed (--train-seed {train_seed})" if train_seed not in (None, "seed")
              else "a training stream per seed")
    sets = "held-out sets per seed" if per_seed == "true" else "one held-out set for every seed"
    return f"{stream}, {sets}"


def pe_label(study, enc):
    """The PE column: theirs (ape, nope) where STUDY's encoding is theirs, else ordo's name with
    what sets it apart (a learned table at offset 0 is not their APE; a fixed table at random
    offsets is not in their paper). Read from the study's shared settings (the root's
    attributes): run.sh sets --random-offset and --pe-max-len per study, not per run."""
    with h5py.File(os.path.join(study, "results.h5"), "r") as f:
        def setting(name):
            value = f.attrs.get("setting." + name)
            return value.decode() if isinstance(value, bytes) else value
        offset, rows = int(setting("random-offset") or 0), int(setting("pe-max-len") or 0)
    if enc == "none" or (enc == "learned" and offset > 0 and rows == 0):
        return THEIR_PE[enc]
    if enc == "learned" and offset == 0:
        return f"learned, offset 0, {rows} rows" if rows else "learned, offset 0"
    if offset > 0 and enc in ("learned", "sinusoidal"):
        return f"{enc}, random offsets, {rows} rows" if rows else f"{enc}, random offsets"
    return enc


def read_theirs():
    with open(os.path.join(HERE, "theirs.csv"), newline="") as f:
        return list(csv.DictReader(f))


def mean(values):
    values = [v for v in values if not math.isnan(v)]
    return sum(values) / len(values) if values else math.nan


def fmt(x):
    return "-" if math.isnan(x) else f"{x:.4f}"


def duration(seconds):
    if seconds < 60:
        return f"{seconds:.0f}s"
    h, m = divmod(int(round(seconds / 60)), 60)
    return f"{h}h{m:02d}m" if h else f"{m}m"


def main(studies):
    theirs = read_theirs()
    ours = []
    for s in studies:
        for r in read_runs(s):
            r["study"] = os.path.basename(os.path.normpath(s))
            ours.append(r)
    # A cell is a study's (task, encoding): two studies of one cell (other seeding, say) stay
    # apart, each row named with its study.
    path_of = {os.path.basename(os.path.normpath(s)): s for s in studies}
    cells, studies_of, pe_of = [], {}, {}
    for r in ours:
        key = (r["study"], r["task"], r["encoding"])
        if key not in cells:
            cells.append(key)
            pe_of[key] = pe_label(path_of[r["study"]], r["encoding"])
            studies_of.setdefault((r["task"], pe_of[key]), []).append(r["study"])
    shown = set()
    out = ["| task | PE | side | runs kept / tried | 0-50 | 51-100 | 101-150 | steps (kept) | all runs 51-100 | all runs 101-150 |",
           "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    per_run = []
    for study, task, enc in cells:
        pe = pe_of[(study, task, enc)]
        them = [t for t in theirs if t["task"] == THEIR_TASK.get(task, task) and t["pe"] == pe]
        shared = len(studies_of[(task, pe)]) > 1
        if them and (task, pe) not in shown:
            shown.add((task, pe))
            kept = [t for t in them if t["kept"] == "yes"]
            acc = [mean([float(t[k]) for t in kept]) for k in ("acc_0_50", "acc_51_100", "acc_101_150")]
            every = [mean([float(t[k]) for t in them]) for k in ("acc_51_100", "acc_101_150")]
            steps = mean([30000 * float(t["stopped"].split()[-1]) for t in kept if t["stopped"].startswith("early")])
            out.append(f"| {task} | {pe} | Huang et al. | {len(kept)} / {len(them)} | " + " | ".join(fmt(a) for a in acc) +
                       f" | {'-' if math.isnan(steps) else int(round(steps))} | " + " | ".join(fmt(a) for a in every) + " |")
        cell = sorted((r for r in ours if (r["study"], r["task"], r["encoding"]) == (study, task, enc)),
                      key=lambda r: r["seed"])
        mine = [r for r in cell if not r["unfinished"]]  # tried: the finished runs
        kept = [r for r in mine if r["kept"]]
        acc = [mean([r["acc"][i] for r in kept]) for i in range(3)]
        every = [mean([r["acc"][i] for r in mine]) for i in (1, 2)]
        steps = mean([r["steps"] for r in kept])
        side = f"ordo ({enc}, {study})" if shared else f"ordo ({enc})"
        out.append(f"| {task} | {pe} | {side} | {len(kept)} / {len(mine)} | " + " | ".join(fmt(a) for a in acc) +
                   f" | {'-' if math.isnan(steps) else int(round(steps))} | " + " | ".join(fmt(a) for a in every) + " |")
        for r in cell:
            per_run.append(f"| {task} | {pe + (f' ({study})' if shared else '')} | {r['seed']} | {'yes' if r['kept'] else 'no'} ({r['stop'] or 'fixed'}) | "
                           f"{r['steps']} | " + " | ".join(fmt(a) for a in r["acc"]) + f" | {duration(r['seconds'])} |")
    seconds = sum(r["seconds"] for r in ours)
    print("Huang et al. 2025 (their files: `theirs.csv`) beside ordo (`run.sh`), accuracy = every answer token")
    print("and EOS right under teacher forcing, mean over the kept runs; \"all runs\" averages every run tried.")
    print(f"Machine time: the {len(ours)} ordo runs' own wall times add up to {duration(seconds)}.")
    print("Seeding (theirs: one training stream for every seed, held-out sets per seed):\n")
    for s in studies:
        print(f"- {os.path.basename(os.path.normpath(s))}: {seeding(s)}")
    print()
    print("\n".join(out))
    print("\nordo, every run (kept: stopped with every training-range sequence right; unfinished: still")
    print("training when its study was stopped, its last evaluation shown, not counted above):\n")
    print("| task | PE | seed | kept | steps | 0-50 | 51-100 | 101-150 | wall |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(per_run))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: compare.py STUDY_DIR... (ordo compare directories of docs/results/huang/run.sh)")
    main(sys.argv[1:])
