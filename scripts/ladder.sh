#!/usr/bin/env bash
# The strength ladder of one game: one round-robin tournament of random, heuristic,
# heuristic+lookahead(8), a trained agent, agent+lookahead(8) and ISMCTS (its default budget),
# on duplicate deals (each deal played with seats swapped), 2 worker processes. Writes
# docs/ladder/<name>.json and docs/ladder/<name>.png and prints the tables (Bradley-Terry Elo with
# 95 % bootstrap intervals, openskill, the Wilson score matrix).
#
#   scripts/ladder.sh garda3 '{}' runs/garda3-<timestamp>               # the ladders of the game pages
#   scripts/ladder.sh scratch_wars '{"level": 3}' runs/scratch_wars-<timestamp>
#   scripts/ladder.sh dirt_and_glory '{"num_players": 2}' runs/dirt_and_glory-<timestamp>
#   DEALS=50 NAME=garda3-50 scripts/ladder.sh garda3 '{}' runs/garda3-<timestamp>
#
# The trained agent is a run folder of the main job (training/ppo.py --game <game> ...;
# scripts/main_job.sh for Garda3). Environment: DEALS (default 20 deals per pair), WORKERS (2),
# ISMCTS (the spec, default "ismcts"), NAME (the output name, default the game).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
    echo "usage: scripts/ladder.sh GAME GAME_CONFIG_JSON RUN_FOLDER" >&2
    exit 2
fi
game=$1 config=$2 model=$3/model.zip
[ -f "$model" ] || { echo "scripts/ladder.sh: no trained model at $model" >&2; exit 2; }
name=${NAME:-$game}
mkdir -p docs/ladder
exec card-envs tournament --game "$game" --game-config "$config" \
    --policies "random,heuristic,heuristic+lookahead:8,$model,$model+lookahead:8,${ISMCTS:-ismcts}" \
    --deals "${DEALS:-20}" --workers "${WORKERS:-2}" \
    --json "docs/ladder/$name.json" --png "docs/ladder/$name.png"
