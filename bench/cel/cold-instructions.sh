#!/bin/bash
# Instructions (valgrind Ir) of one cold pass of CEL compilation over the corpus rules, per phase, and
# of @marcbachmann/cel-js's parse + check: each mode runs in a fresh process; a phase is the difference
# between two modes (parse = parse - none, check = check - parse, validators = compile - check,
# plan = program - compile). Node runs with --single-threaded (V8's optimizing compiler on the main
# thread), which makes counts repeat within ~1 %; most of a cold pass is that compiler (see the README's
# Performance section). ~25 s per mode.
#
#   bash bench/cel/cold-instructions.sh [ROOT...]     ROOT: checkouts with dist/ built; default this one
#   NODE_FLAGS="--interrupt-budget=264000" bash bench/cel/cold-instructions.sh      extra V8 flags
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$(cd "$here/../.." && pwd)"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node "$here/cold-instructions.mjs" "$1" --list "$tmp/list.json"
ir() { # ROOT MODE
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" node --single-threaded ${NODE_FLAGS:-} \
    "$here/cold-instructions.mjs" "$1" "$2" "$tmp/list.json" 2>&1 | grep -o 'Collected : [0-9]*' | awk '{print $3}'
}
for root in "$@"; do
  declare -A v=()
  for m in none parse check compile program cel-js; do v[$m]=$(ir "$root" "$m"); done
  awk -v r="$root" -v n="${v[none]}" -v p="${v[parse]}" -v c="${v[check]}" -v k="${v[compile]}" -v g="${v[program]}" -v m="${v[cel-js]}" 'BEGIN {
    printf "%s: parse %.1fM, check %.1fM, validators %.1fM, plan %.1fM; crdkit %.1fM, cel-js %.1fM, ratio %.2fx\n",
      r, (p-n)/1e6, (c-p)/1e6, (k-c)/1e6, (g-k)/1e6, (g-n)/1e6, (m-n)/1e6, (m-n)/(g-n) }'
done
