#!/usr/bin/env bash
# The main job: MaskablePPO league self-play on Garda3 for 15 minutes of wall clock on this CPU
# machine (torch.set_num_threads(1)), then 400 seat-swapped deterministic games against random and
# 400 against the heuristic bot (fixed, never trained), printed with 95 % Wilson intervals: once
# for the trained policy alone ("agent") and once for the trained policy improved at decision time
# by 8 determinized rollouts per decision that it plays itself ("agent+lookahead(8)",
# card_envs/bots/lookahead.py; --final-eval-lookahead 0 skips it).
#
#   scripts/main_job.sh                      # defaults
#   scripts/main_job.sh --minutes 5          # any training/ppo.py flag passes through
#
# Output: runs/garda3-<timestamp>/ with model.zip, learning_curve.png, summary.json,
# progress.csv, checkpoints/, league/.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python training/ppo.py --game garda3 --minutes 15 --final-eval-games 400 "$@"
