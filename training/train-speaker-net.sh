#!/usr/bin/env bash
# Rebuilds the neural window speaker embedding from Debian packages, reproducibly:
#   training/train-speaker-net.sh [CORPUS=/work/spk-train] [WORK=/work/spk-net]
# 1. the corpus (training/speaker-data.sh) when CORPUS has none;
# 2. 600 simulated sessions of the engine's own speaker features (export-sessions.ts), session s
#    drawing the voices of leave-voices-out fold s mod 3;
# 3. one model per fold, trained on the other folds' sessions (WORK/fold-K.json: for the
#    speaker-disjoint validation, eval/folds.ts), and the shipped model on every session;
# 4. the model written as WORK/speaker-net.model.ts, ready to copy into packages/analysis/src/speech/diarization/
#    (with a DEFAULT_EMBEDDING change) once it wins on the folds; today it does not.
# Not run by install or CI. About 40 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-/work/spk-train}
WORK=${2:-/work/spk-net}
NODE=node_modules/.bin/node
PY=/usr/bin/python3
"$PY" -c 'import torch, numpy' 2>/dev/null || apt-get install -y python3-torch python3-numpy >/dev/null
[ -f "$CORPUS/speakers.json" ] || training/speaker-data.sh "$CORPUS"
mkdir -p "$WORK"
[ -f "$WORK/export/meta.json" ] || "$NODE" training/export-sessions.ts --data "$CORPUS" --out "$WORK/export" --sessions 600 --seed 1
for k in 0 1 2; do
  [ -f "$WORK/fold-$k.json" ] || "$PY" training/train-speaker-net.py --data "$WORK/export" --exclude-fold "$k" --out "$WORK/fold-$k.json"
done
[ -f "$WORK/all.json" ] || "$PY" training/train-speaker-net.py --data "$WORK/export" --out "$WORK/all.json"
"$NODE" training/write-speaker-net-model.ts "$WORK/all.json" "$WORK/speaker-net.model.ts"
