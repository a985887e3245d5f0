# tests/shell/lib/h5_numbers.sh: every number of an HDF5 file as text, for comparing two runs'
# files bit for bit; sourced.
#
#   h5_numbers FILE   # every dataset and attribute at 17 significant digits (h5dump -m %.17g),
#                     # less what a run's wall clock sets: wall_time datasets and the
#                     # wall_seconds and elapsed_seconds attributes
#
# One h5dump for the whole file: a process per dataset took 4 s for one checkpoint's 80.
h5_numbers() {
  h5dump -m %.17g "$1" | tail -n +2 | awk '
    skip == "" && /^ *(DATASET "wall_time"|ATTRIBUTE "(wall_seconds|elapsed_seconds)") \{$/ {
      match($0, /^ */); skip = substr($0, 1, RLENGTH) "}"; next }  # up to the closing brace
    skip != "" { if ($0 == skip) skip = ""; next }                  # at the same indentation
    { print }'
}

#   h5_same A B DIR   # every number of A equal in B (h5_numbers of each, at least 51 lines);
#                     # else the first lines of the difference, and a non-zero status; DIR
#                     # holds the dumps and the whole difference (DIR/h5_diff.txt)
h5_same() {
  h5_numbers "$1" >"$3/h5_a.txt" && h5_numbers "$2" >"$3/h5_b.txt" || return 1
  [[ $(wc -l <"$3/h5_a.txt") -gt 50 ]] || { echo "  $1: too little to compare"; return 1; }
  diff "$3/h5_a.txt" "$3/h5_b.txt" >"$3/h5_diff.txt" || { head -n 8 "$3/h5_diff.txt"; return 1; }
}
