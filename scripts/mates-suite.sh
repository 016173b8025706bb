#!/usr/bin/env bash
# The forced-line suite (issue 38, data/README.md "mates/"): games of wuzi against a sparring
# engine in the four leagues, and the positions taken from them.
#
#   SPARRING=path/to/pbrain-x scripts/mates-suite.sh play OUT      # play the games into OUT/
#   scripts/mates-suite.sh extract OUT data/mates/suite.txt        # write the suite
#
# `play` plays each batch below as one `wuzi match` (500 ms a move, 3 s tolerance, one game at
# a time, one thread each) and keeps OUT/BATCH.sgf (the games), OUT/BATCH.log (both engines'
# MESSAGE lines) and OUT/BATCH.txt (the match's report; its progress lines in OUT/BATCH.progress). A batch whose report is complete is
# not played again, so an interrupted run goes on where it stopped. WUZI_BIN (default: a
# fresh `cargo build --release` in target/release) holds the `wuzi` and `pbrain-wuzi` to
# play with; BATCHES (default: all, in the order below) names the batches to play.
#
# `extract` reads every OUT/BATCH.sgf with its log and writes the suite (`wuzi mates
# extract`; its --help says which position each game gives). The batches at time odds (the
# sparring engine at 50 ms a move, wuzi at 500 ms) are there for positions where wuzi has
# the forced win, which the games at equal time give too rarely; only those are taken
# from them.
#
# Play at normal priority and with nothing else heavy beside it: an engine that loses on
# time on a starved machine spoils the data.
set -euo pipefail
cd "$(dirname "$0")/.."

# name rule size openings games [sparring turn time: time odds]
BATCHES_ALL="
fs15-2025 freestyle 15 freestyle15-gomocup2025 24
std15-2026 standard 15 freestyle15-gomocup2026 24
fs20-judge freestyle 20 freestyle20-gomocupjudge 12
renju15 renju 15 renju15-katagomo-balanced200 60
fs15-2024 freestyle 15 freestyle15-gomocup2024 24
fs20-piskvork freestyle 20 any-size-piskvork 48
std15-2024 standard 15 freestyle15-gomocup2024 24
fs15-2026 freestyle 15 freestyle15-gomocup2026 24
odds-fs15 freestyle 15 freestyle15-gomocup2024 24 50ms
odds-std15 standard 15 freestyle15-gomocup2025 24 50ms
odds-fs20 freestyle 20 any-size-piskvork 24 50ms
odds-renju15 renju 15 renju15-katagomo-balanced200 24 50ms
"

usage() {
  echo "usage: SPARRING=ENGINE $0 play OUT | $0 extract OUT SUITE" >&2
  exit 2
}

wuzi_bin() {
  if [ -z "${WUZI_BIN:-}" ]; then
    nice -n 19 cargo build --release --bins >&2
    WUZI_BIN=target/release
  fi
}

play() {
  local out=$1
  : "${SPARRING:?set SPARRING to the sparring engine program}"
  wuzi_bin
  mkdir -p "$out"
  git rev-parse HEAD > "$out/commit.txt" 2>/dev/null || true
  while read -r -u 3 name rule size suite games odds; do
    [ -n "$name" ] || continue
    if [ -n "${BATCHES:-}" ] && ! [[ " $BATCHES " == *" $name "* ]]; then
      continue
    fi
    if [ -f "$out/$name.txt" ] && grep -q '^=== Match finished' "$out/$name.txt"; then
      echo "$name: played already" >&2
      continue
    fi
    local sparring="cmd=$SPARRING,name=sparring"
    if [ -n "$odds" ]; then
      sparring="$sparring,option.timeout_turn=${odds%ms}"
    fi
    echo "$name: $games games, $rule ${size}x$size, $suite${odds:+, sparring at $odds a move}" >&2
    if ! "$WUZI_BIN/wuzi" match \
      --engine "cmd=$WUZI_BIN/pbrain-wuzi,name=wuzi" \
      --engine "$sparring" \
      --rule "$rule" --size "$size" --openings "$suite" --games "$games" \
      --turn-time 500ms --tolerance 3s --concurrency 1 --progress lines \
      --sgf "$out/$name.sgf" --message-log "$out/$name.log" \
      --stderr-dir "$out/stderr" > "$out/$name.txt" 2> "$out/$name.progress"; then
      echo "$name: the match failed: $(tail -n 1 "$out/$name.progress")" >&2
      exit 1
    fi
  done 3<<< "$BATCHES_ALL"
}

extract() {
  local out=$1 suite=$2
  wuzi_bin
  local args=()
  while read -r -u 3 name rule size openings games odds; do
    [ -n "$name" ] && [ -f "$out/$name.sgf" ] || continue
    if [ -n "$odds" ]; then
      args+=(--odds "$name=$out/$name")
    else
      args+=(--batch "$name=$out/$name")
    fi
  done 3<<< "$BATCHES_ALL"
  "$WUZI_BIN/wuzi" mates extract "${args[@]}" --wuzi wuzi --sparring sparring --out "$suite"
}

case "${1:-}" in
  play) [ $# -eq 2 ] || usage; play "$2" ;;
  extract) [ $# -eq 3 ] || usage; extract "$2" "$3" ;;
  *) usage ;;
esac
