#!/usr/bin/env bash
# Rebuilds the shipped neural speaker embedding from the real-voice corpus, reproducibly, on CPU:
#   training/train-real-voices.sh [CORPUS=/work/rv-corpus] [WORK=/work/rv-net]
# 1. the corpus (training/real-voices-corpus.sh: 716 real speakers from ../shared) when CORPUS has none;
# 2. 2400 simulated sessions of the engine's own speaker features (export-sessions.ts): 3-6 voices of
#    one leave-voices-out fold per session, 4-12 s each, every voice at three speeds (pseudo-speakers),
#    its own random channel, 20 % of voices through a real room, 30 % of sessions under recorded
#    noise at 5-20 dB SNR, 15 % through a GSM telephone codec;
# 3. one model per fold, trained on the other folds' sessions (WORK/fold-K.json, for the
#    speaker-disjoint validation: eval/folds.ts, eval/window-eer.ts), and the shipped model on
#    every session (WORK/all.json);
# 4. the shipped model written as WORK/speaker-net.model.ts, to copy into
#    packages/analysis/src/speech/diarization/.
# Each step is skipped when its output exists, and the trainer resumes from its checkpoint, so an
# interrupted run goes on where it stopped. Not run by install or CI. Extra trainer options
# (for example --steps 4000) go in TRAIN_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-/work/rv-corpus}
WORK=${2:-/work/rv-net}
NODE=node_modules/.bin/node
PY=/usr/bin/python3
"$PY" -c 'import torch, numpy' 2>/dev/null || apt-get install -y python3-torch python3-numpy >/dev/null
command -v sox >/dev/null || apt-get install -y sox libsox-fmt-all >/dev/null
[ -f "$CORPUS/speakers.json" ] || training/real-voices-corpus.sh ../shared/datasets/real-voices "$CORPUS"
mkdir -p "$WORK"
[ -f "$WORK/export/meta.json" ] || "$NODE" training/export-sessions.ts --data "$CORPUS" --out "$WORK/export" \
  --sessions "${SESSIONS:-2400}" --seed 1 --speeds 0.9,1,1.1 --voices 3,6 --voice-sec 4,12 \
  --telephone 0.15 --reverb 0 --room 0.2 --noise 0.3
ARGS=(--channels "${CHANNELS:-64}" --emb 128 --keep 32 --batch 96 --steps "${STEPS:-3000}" ${TRAIN_ARGS:-})
for k in 0 1 2; do
  [ -f "$WORK/fold-$k.json" ] || "$PY" training/train-speaker-net.py --data "$WORK/export" --exclude-fold "$k" --out "$WORK/fold-$k.json" "${ARGS[@]}"
done
[ -f "$WORK/all.json" ] || "$PY" training/train-speaker-net.py --data "$WORK/export" --out "$WORK/all.json" "${ARGS[@]}"
"$NODE" training/write-speaker-net-model.ts "$WORK/all.json" "$WORK/speaker-net.model.ts"
