#!/usr/bin/env bash
# tests/shell/test_report_browser.sh: the report.html that `ordo compare` writes, opened in headless
# chromium by tests/browser/check_report.mjs: no console error, no request, every chart drawn for
# every task, the overview heatmap complete, a legend click hides a series in every chart, the
# study's preamble shown with its `code` spans drawn as code, and a learning-rate sweep's
# tables are shown.
# Usage: bash test_report_browser.sh <ordo> <ordo_tests> (the second is not used).
# Needs Debian's chromium ($ORDO_CHROMIUM, else /usr/bin/chromium), node and
# tests/browser/node_modules (npm ci --prefix tests/browser; ./run test installs all three);
# without one of them it says which and exits 77 (skipped).
set -euo pipefail
ordo=${1:?usage: test_report_browser.sh <ordo> <ordo_tests>}
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }

chromium=${ORDO_CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $chromium ]]; then
  echo "SKIP: no chromium found (install Debian's chromium: apt-get install chromium); the report's browser test did not run"
  exit 77
fi
export ORDO_CHROMIUM=$chromium
if ! command -v node >/dev/null; then
  echo "SKIP: node not found (apt-get install nodejs npm; ./run test does); the report's browser test did not run"
  exit 77
fi
if [[ ! -d $root/tests/browser/node_modules/playwright-core ]]; then
  echo "SKIP: tests/browser/node_modules/playwright-core is missing (npm ci --prefix tests/browser; ./run test does);" \
       "the report's browser test did not run"
  exit 77
fi

dir=$(mktemp -d /tmp/ordo_report_browser_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

"$ordo" compare --tasks order,shift --encodings none,rope,alibi --seeds 2 --steps 40 --out "$dir/study" >/dev/null ||
  fail "ordo compare exited $?"
[[ -s $dir/study/report.html ]] || fail "ordo compare wrote no report.html"
node "$root/tests/browser/check_report.mjs" "$dir/study/report.html" || fail "the report failed its browser checks (above)"
# Twelve evaluation lengths on a log axis: their tick labels must be thinned, not overprinted
# (112, 120 and "4x (128)" ran together before the lengths chart chose which to label).
"$ordo" compare --tasks copy --encodings none,rope --seeds 1 --steps 20 --eval-lens 40:128:8 --out "$dir/lengths" >/dev/null ||
  fail "ordo compare --eval-lens 40:128:8 exited $?"
node "$root/tests/browser/check_report.mjs" "$dir/lengths/report.html" ||
  fail "the report with twelve evaluation lengths failed its browser checks (above)"
# One series (its legends have one entry each) and four tasks of seven columns, too wide for two
# in a band at 1400 px: the overview is laid out in four bands, each within the page.
"$ordo" compare --tasks even_pairs,parity,cycle_navigation,odds_first --encodings rope --seeds 1 --steps 20 \
  --eval-lens 60 --eval-lens-final 41:201:40 --eval-sequences 8 --out "$dir/bands" >/dev/null ||
  fail "ordo compare of one series on four tasks exited $?"
node "$root/tests/browser/check_report.mjs" "$dir/bands/report.html" --min-bands 4 ||
  fail "the report of one series in four overview bands failed its browser checks (above)"
# A learning-rate sweep: each task shows the rate each cell's numbers come from and the
# literature's best-of view, apart.
"$ordo" compare --tasks order --encodings none,rope --seeds 1 --steps 20 --lrs 1e-3,3e-3 --out "$dir/rates" >/dev/null ||
  fail "ordo compare --lrs 1e-3,3e-3 exited $?"
node "$root/tests/browser/check_report.mjs" "$dir/rates/report.html" --rates ||
  fail "the report of a learning-rate sweep failed its browser checks (above)"
echo "report_browser: report.html passed its browser checks"
