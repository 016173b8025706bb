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
for rule in ${RULES:-freestyle standard renju caro caro-exact}; do
  suite=freestyle15-gomocup2025
  [ "$rule" = renju ] && suite=renju15-katagomo-balanced200
  # The reference engine's resident size passes 350 MB whatever it is told (its tables), so
  # its games run with a 1 GiB limit: pbrain-wuzi is then held to that, and to 350 MB in
  # every other run.
  if [ -x "$SPARRING" ] && [ "${rule#caro}" = "$rule" ]; then
    sparring="cmd=$SPARRING,name=rapfi"
    sparring_memory=1G
  else
    sparring="cmd=target/release/pbrain-testengine,arg=random,name=random"
    sparring_memory=350M
  fi
  for opponent in ${OPPONENTS:-self sparring}; do
    if [ "$opponent" = self ]; then
      other="cmd=target/release/pbrain-wuzi,name=wuzi-b"
      memory=350M
    else
      other=$sparring
      memory=$sparring_memory
    fi
    target/release/wuzi match \
      --engine cmd=target/release/pbrain-wuzi,name=wuzi \
      --engine "$other" \
      --rule "$rule" --openings "$suite" --order random --seed 14 --games "$GAMES" \
      --turn-time 100ms --tolerance 1s --concurrency 2 --max-memory "$memory" --enforce-memory \
      --sgf "soak/$rule-$opponent.sgf" --message-log "soak/$rule-$opponent.log" \
      --progress off > "soak/$rule-$opponent.txt"
    tail -n 12 "soak/$rule-$opponent.txt"
  done
done
