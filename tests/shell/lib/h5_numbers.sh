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
