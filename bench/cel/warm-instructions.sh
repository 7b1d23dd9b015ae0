#!/bin/bash
# Instructions (valgrind Ir) of one warm pass of CEL compilation over the corpus rules, per mode: the same
# process set-up as cold-instructions.sh, run once with LO and once with HI passes (PASSES=N of
# cold-instructions.mjs); a warm pass is (HI run - LO run) / (HI - LO). Node runs with --single-threaded
# and fixed hash and random seeds (GC and V8's optimizing compiler on the main thread, so both are counted;
# the seeds make two runs of the same process agree within ~0.05M instructions, ~12M without them). Passes
# before ~10 still include TurboFan work: keep LO >= 10. ~5 min per mode and root on a quiet machine.
#
#   bash bench/cel/warm-instructions.sh [ROOT...]     ROOT: checkouts with dist/ built; default this one
#   MODES="program cel-js" LO=10 HI=40 bash bench/cel/warm-instructions.sh /work/base29 .
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$(cd "$here/../.." && pwd)"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
lo=${LO:-10}
hi=${HI:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node "$here/cold-instructions.mjs" "$1" --list "$tmp/list.json"
ir() { # ROOT MODE PASSES
  PASSES=$3 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" node --single-threaded --hash-seed=1 --random-seed=1 "$here/cold-instructions.mjs" "$1" "$2" "$tmp/list.json" 2>&1 |
    grep -o 'Collected : [0-9]*' | awk '{print $3}'
}
for root in "$@"; do
  for m in ${MODES:-parse check compile program cel-js}; do
    a=$(ir "$root" "$m" "$lo")
    b=$(ir "$root" "$m" "$hi")
    awk -v r="$root" -v m="$m" -v a="$a" -v b="$b" -v n=$((hi - lo)) 'BEGIN { printf "%s %s: %.1fM per warm pass\n", r, m, (b - a) / n / 1e6 }'
  done
done
