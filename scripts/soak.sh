#!/usr/bin/env bash
# Soak test of pbrain-wuzi (issue 14, docs/soak.md): 500 fast games, 100 ms a move, two at
# once, with --enforce-memory. Per rule, 50 games against itself and 50 against a sparring
# engine: the reference engine (Rapfi, classical) where it plays the rule and is present
# (SPARRING, default ../shared/sparring/rapfi/pbrain-rapfi-classical), else the project's
# own test engine in random mode. Writes soak/<rule>-<opponent>.{txt,sgf,log}.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --workspace
SPARRING=${SPARRING:-../shared/sparring/rapfi/pbrain-rapfi-classical}
GAMES=${GAMES:-50}
mkdir -p soak
# The reference engine sizes its hash table to the whole of `INFO max_memory` and then passes
# the limit with its other tables. It runs from a copy of its directory (under soak/, which git
# ignores) whose config.toml keeps 200 MB out of the table; the copy is never part of the
# project. Its wrapper reads the config beside it, so the copy is all it takes.
if [ -x "$SPARRING" ] && [ -f "$(dirname "$SPARRING")/config.toml" ]; then
  rm -rf soak/sparring
  cp -r "$(dirname "$SPARRING")" soak/sparring
  chmod -R u+w soak/sparring
  sed -i 's/^memory_reserved_mb = .*/memory_reserved_mb = 200/' soak/sparring/config.toml
  SPARRING="soak/sparring/$(basename "$SPARRING")"
fi
for rule in ${RULES:-freestyle standard renju caro caro-exact}; do
  suite=freestyle15-gomocup2025
  [ "$rule" = renju ] && suite=renju15-katagomo-balanced200
  if [ -x "$SPARRING" ] && [ "${rule#caro}" = "$rule" ]; then
    sparring="cmd=$SPARRING,name=rapfi"
  else
    sparring="cmd=target/release/pbrain-testengine,arg=random,name=random"
  fi
  for opponent in ${OPPONENTS:-self sparring}; do
    if [ "$opponent" = self ]; then
      other="cmd=target/release/pbrain-wuzi,name=wuzi-b"
    else
      other=$sparring
    fi
    target/release/wuzi match \
      --engine cmd=target/release/pbrain-wuzi,name=wuzi \
      --engine "$other" \
      --rule "$rule" --openings "$suite" --order random --seed 14 --games "$GAMES" \
      --turn-time 100ms --tolerance 1s --concurrency 2 --max-memory 350M --enforce-memory \
      --sgf "soak/$rule-$opponent.sgf" --message-log "soak/$rule-$opponent.log" \
      --progress off > "soak/$rule-$opponent.txt"
    tail -n 12 "soak/$rule-$opponent.txt"
  done
done
