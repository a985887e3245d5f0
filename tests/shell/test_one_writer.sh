#!/usr/bin/env bash
# tests/shell/test_one_writer.sh: one writer per output directory (issue 23;
# study/output_lock.h).
#   1. a second `ordo train` on the --out of a running one is refused at once (exit 2),
#      naming the running one's pid; so is a second `ordo compare`;
#   2. the lock goes with its holder: after SIGINT, --resume proceeds; after kill -9, --force
#      proceeds;
#   3. a resume removes the temporaries a killed writer left (<file>.tmp.<pid>);
#   4. a directory this user cannot write is refused before the first step (run as an
#      unprivileged user via setpriv when the test runs as root; skipped, and said, when
#      neither works).
# Usage: bash test_one_writer.sh <ordo> [<ordo_tests>]
set -uo pipefail
ordo=${1:?usage: test_one_writer.sh <ordo> [<ordo_tests>]}
ordo=$(cd "$(dirname "$ordo")" && pwd)/$(basename "$ordo")
dir=$(mktemp -d /tmp/ordo_one_writer_XXXXXX)
pid=
cleanup() {
  [[ -n $pid ]] && kill -9 "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
export OMP_NUM_THREADS=1
failed=0
fail() { echo "FAIL: $*"; failed=1; }

model=(--task shift --d-model 16 --heads 2 --layers 1 --d-ff 32 --batch 8 --eval-every 100000 --quiet)
# start <out> <command...>: runs in the background until its --out is locked (the
# directory exists: it is created just before the lock is taken, after every check).
start() {
  local out=$1
  shift
  "$@" >"$dir/bg.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    [[ -d $out ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  sleep 0.3
  kill -0 "$pid" 2>/dev/null || { cat "$dir/bg.log"; fail "the first process ended early"; }
}
expect2() {  # expect2 <what it must say> <command...>
  local want=$1 rc=0
  shift
  "$@" >"$dir/err.log" 2>&1 || rc=$?
  [[ $rc -eq 2 ]] || fail "$* exited $rc, expected 2: $(head -c 300 "$dir/err.log")"
  grep -q -- "$want" "$dir/err.log" || fail "$* did not say '$want': $(head -c 300 "$dir/err.log")"
}

# ---- 1, 2: train ----
start "$dir/t" "$ordo" train "${model[@]}" --steps 1000000 --out "$dir/t"
first=$pid
expect2 "is in use by another ordo (pid $first" "$ordo" train "${model[@]}" --steps 1000000 --out "$dir/t"
expect2 "is in use by another ordo (pid $first" "$ordo" compare --tasks shift --encodings none --seeds 1 --out "$dir/t" --force
kill -INT "$first"
wait "$first"
pid=
touch "$dir/t/checkpoint.h5.tmp.99999"  # what a killed writer leaves
"$ordo" train "${model[@]}" --steps 1000000 --out "$dir/t" --resume >"$dir/resume.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do [[ -e "$dir/t/checkpoint.h5.tmp.99999" ]] || break; sleep 0.05; done
[[ ! -e "$dir/t/checkpoint.h5.tmp.99999" ]] || fail "the resume did not remove a stale temporary: $(cat "$dir/resume.log")"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
"$ordo" train "${model[@]}" --steps 20 --out "$dir/t" --force >/dev/null 2>&1 ||
  fail "after kill -9 of the holder, --force was blocked"

# ---- 1: compare ----
grid=(compare --tasks shift --encodings none,rope --seeds 1 --steps 1000000 "${model[@]:2}")
start "$dir/g" "$ordo" "${grid[@]}" --out "$dir/g"
first=$pid
expect2 "is in use by another ordo (pid $first" "$ordo" "${grid[@]}" --out "$dir/g" --resume
kill -TERM "$first"
wait "$first"
pid=
[[ -f "$dir/g/results.h5" ]] || fail "compare stopped by SIGTERM left no results.h5"

# ---- 4: a directory that cannot be written ----
mkdir -p "$dir/ro"
chmod 555 "$dir/ro"
as_user=()
if [[ $(id -u) -eq 0 ]]; then
  chmod 755 "$dir"
  if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups "$ordo" --version >/dev/null 2>&1; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  else
    echo "note: running as root without a usable setpriv: the unwritable-directory case is skipped"
  fi
fi
if [[ $(id -u) -ne 0 || ${#as_user[@]} -gt 0 ]]; then
  expect2 "cannot write in the directory" "${as_user[@]}" "$ordo" train "${model[@]}" --steps 5 --out "$dir/ro"
  expect2 "cannot create the directory" "${as_user[@]}" "$ordo" train "${model[@]}" --steps 5 --out "$dir/ro/sub"
fi

[[ $failed -eq 0 ]] || exit 1
echo "one writer: OK"
