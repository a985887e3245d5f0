#!/usr/bin/env bash
# tests/guides/extract.sh: turns a guide (docs/guides/<name>.md) into the files it tells a
# reader to write, so that CI builds and runs exactly what the page shows.
#
#   bash extract.sh <guide.md> <repository root> <output dir>
#
# Fenced code blocks are read by their info string:
#   ```cpp file=PATH          the block is the whole new file PATH        -> <out>/PATH
#   ```cpp registry=PATH      the block holds lines to add to the list in PATH, above the
#                             line with "end of the list"               -> <out>/PATH, a copy
#   ```cpp registry=PATH above=WORD   the same, above the line with "end of the WORD" (two
#                             blocks may extend one file: the second reads the first's copy)
#   ```sh run                 commands to run after building            -> <out>/commands.sh
# Every other block is prose. Prints the files written, one per line.
set -euo pipefail
guide=${1:?usage: extract.sh <guide.md> <root> <out>}
root=${2:?}
out=${3:?}
rm -rf "$out"
mkdir -p "$out"
awk -v out="$out" -v root="$root" '
  function flush() {
    if (kind == "file") {
      path = out "/" target
      system("mkdir -p \"$(dirname \"" path "\")\"")
      printf "%s", body > path
      close(path)
      print path
    } else if (kind == "registry") {
      path = out "/" target
      src = root "/" target
      if (target in extended) {  # a second block on the same file: start from the copy of the first
        src = path ".before"
        system("mv \"" path "\" \"" src "\"")
      }
      system("mkdir -p \"$(dirname \"" path "\")\"")
      added = 0
      while ((getline line < src) > 0) {
        if (!added && index(line, marker)) { printf "%s", body > path; added = 1 }
        print line > path
      }
      close(src)
      close(path)
      if (target in extended) system("rm -f \"" src "\"")
      if (!added) { print "extract.sh: no \"" marker "\" line in " src > "/dev/stderr"; exit 1 }
      if (!(target in extended)) print path
      extended[target] = 1
    } else if (kind == "run") {
      path = out "/commands.sh"
      printf "%s", body >> path
      close(path)
    }
    kind = ""; body = ""
  }
  /^```/ {
    if (inblock) { flush(); inblock = 0; next }
    inblock = 1; kind = ""; target = ""; body = ""
    if (match($0, /file=[^ ]+/)) { kind = "file"; target = substr($0, RSTART + 5, RLENGTH - 5) }
    else if (match($0, /registry=[^ ]+/)) {
      kind = "registry"; target = substr($0, RSTART + 9, RLENGTH - 9); marker = "end of the list"
      if (match($0, /above=[^ ]+/)) marker = "end of the " substr($0, RSTART + 6, RLENGTH - 6)
    } else if ($0 ~ /^```sh run/) { kind = "run" }
    next
  }
  inblock { body = body $0 "\n" }
  END { if (inblock) { print "extract.sh: unterminated code block in the guide" > "/dev/stderr"; exit 1 } }
' "$guide"
if [[ -f "$out/commands.sh" ]]; then echo "$out/commands.sh"; fi
