#!/usr/bin/env bash
# The 10M-item run (docs/performance.md, "10M items"), measured once by hand, not in CI:
#
#   benches/big.sh [ITEMS] [DIR]      # default 10000000 items in /work/big10m
#
# Generates the set with the benches' generator (benches/support/synth, seed 0x5eed2026,
# the same as the 1M set of `cargo bench --bench store -- --full`; 10M items are about
# 19.6 GB), then measures, printing the load average with every figure:
#   1. stats and its floor, a plain `Value` parse of every line (`bench store --stats-only`)
#   2. the floors, open, the index built and the kept index read back (`bench tui
#      --index-only` on the same file)
#   3. quit with a verdict to fold: the shell back, the fold done (`bench quit`, which
#      copies the file once per run)
#   4. from outside, the release binary in tmux at 80x24 (benches/outside.py big): first
#      frame, the index, 200 steps, a jump by id, private memory, a verdict, quit, the
#      fold, the reopen with the kept index, `verdict stats`
# and deletes the file at the end (KEEP=1 keeps it). Needs the file's size twice over
# (step 3's copy) plus 10 GB free on DIR's disk. Output: DIR/big-<items>.log.
set -euo pipefail
N=${1:-10000000}
DIR=${2:-/work/big10m}
cd "$(dirname "$0")/.."
mkdir -p "$DIR"
LOG="$DIR/big-$N.log"
FILE="$DIR/synth-v1-n$N-seed5eed2026.jsonl"
need_gb=$(( N * 2 * 2 / 1000000 + 10 ))
free_gb=$(df -BG --output=avail "$DIR" | tail -1 | tr -dc 0-9)
if [ ! -e "$FILE" ] && [ "$free_gb" -lt "$need_gb" ]; then
    echo "needs ~${need_gb} GB free on $DIR, has ${free_gb} GB" >&2
    exit 1
fi
exec > >(tee -a "$LOG") 2>&1
echo "== $(date -u) big.sh $N $DIR; $(uptime)"
# builds target/release/verdict too (the bench profile is the release one)
cargo bench --no-run --bench store --bench tui --bench quit
export VERDICT_BENCH_DIR="$DIR"
t0=$(date +%s.%N)
cargo bench --bench store -- --sizes "$N" --generate-only
echo "generated in $(echo "$(date +%s.%N) - $t0" | bc) s: $(ls -l "$FILE")"
echo "== stats and its floor; $(uptime)"
cargo bench --bench store -- --sizes "$N" --stats-only --keep-data --runs 1
echo "== floors, open, index, kept index; $(uptime)"
VERDICT_BENCH_FILE="$FILE" cargo bench --bench tui -- --sizes "$N" --index-only
echo "== quit and fold (real binary, pty); $(uptime)"
cargo bench --bench quit -- --sizes "$N" --runs 1
echo "== from outside (tmux, 80x24); $(uptime)"
python3 benches/outside.py big "$FILE"
echo "== done $(date -u); $(uptime)"
if [ "${KEEP:-0}" != 1 ]; then
    rm -f "$FILE"
    echo "deleted $FILE"
fi
