#!/usr/bin/env bash
# Rebuilds the engine's speaker segmentation network from the real-voice corpus, reproducibly, on CPU:
#   training/train-segmentation.sh [CORPUS=/work/rv-corpus] [WORK=/work/seg]
# 1. the corpus (training/real-voices-corpus.sh: 716 real speakers from ../shared) when CORPUS has none;
# 2. 3,000 simulated conversations (export-segmentation.ts, two shards side by side: 54 h of the
#    engine's fbank and who speaks in every frame; about 10 minutes on 2 cores);
# 3. one network per leave-voices-out fold, trained without that fold's voices and measured on
#    them (WORK/fold-K.{onnx,json,record.json}: eval/folds.ts reads them), and the shipped one on
#    every voice (WORK/all.*), each with train-segmentation.py (6,000 steps of 32 crops of 8 s,
#    one thread: about 70 minutes a network on a quiet core; two run side by side);
# 4. the shipped network copied to packages/analysis/models/segmentation.{onnx,json,record.json};
# 5. its two fine-tunes, heard with it as one (segmentation/ensemble.ts): 2,000 more steps each on
#    2,000 new conversations, of the same recipe (WORK/ft-default, segmentation-2.*) and with
#    overlap at meetings' rate (WORK/ft-meeting, --overlap meeting, segmentation-3.*); about 10
#    minutes each on 2 cores.
# Each step is skipped when its output exists, and the trainer resumes from its checkpoint, so an
# interrupted run goes on where it stopped. Not run by install or CI. Extra trainer options go in
# TRAIN_ARGS (for example --steps 8000).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-/work/rv-corpus}
WORK=${2:-/work/seg}
NODE=node_modules/.bin/node
PY=/usr/bin/python3
"$PY" -c 'import torch, numpy' 2>/dev/null || apt-get install -y python3-torch python3-numpy >/dev/null
# Debian's torch calls the system BLAS; the reference one makes a step ten times slower.
[ -e /usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3 ] || apt-get install -y libopenblas0-openmp >/dev/null
command -v sox >/dev/null || apt-get install -y sox libsox-fmt-all >/dev/null
[ -f "$CORPUS/speakers.json" ] || training/real-voices-corpus.sh ../shared/datasets/real-voices "$CORPUS"
mkdir -p "$WORK/export"
for k in 0 1; do
  [ -f "$WORK/export/shard-$k/meta.json" ] || "$NODE" training/export-segmentation.ts --corpus "$CORPUS" --out "$WORK/export" \
    --conversations "${CONVERSATIONS:-3000}" --shard "$k" --shards 2 &
done
wait
export OMP_NUM_THREADS=1
ARGS=(--steps "${STEPS:-6000}" --batch 32 ${TRAIN_ARGS:-})
train() { [ -f "$WORK/$1.onnx" ] || "$PY" training/train-segmentation.py --data "$WORK/export" --out "$WORK/$1" "${@:2}" "${ARGS[@]}" > "$WORK/$1.log" 2>&1; }
train fold-0 --exclude-fold 0 & train fold-1 --exclude-fold 1; wait
train fold-2 --exclude-fold 2 & train all; wait
mkdir -p packages/analysis/models
for x in onnx json record.json; do cp "$WORK/all.$x" "packages/analysis/models/segmentation.$x"; done
echo "shipped: packages/analysis/models/segmentation.onnx ($(sha256sum packages/analysis/models/segmentation.onnx | cut -c1-12))"
# The fine-tunes: NAME OVERLAP SEED N (segmentation-N.*).
finetune() {
  for k in 0 1; do
    [ -f "$WORK/$1/export/shard-$k/meta.json" ] || "$NODE" training/export-segmentation.ts --corpus "$CORPUS" --out "$WORK/$1/export" \
      --conversations 2000 --shard "$k" --shards 2 --seed "$3" --overlap "$2" &
  done
  wait
  [ -f "$WORK/$1/net.onnx" ] || OMP_NUM_THREADS=2 "$PY" training/train-segmentation.py --data "$WORK/$1/export" --out "$WORK/$1/net" \
    --init "$WORK/all.onnx" --steps 2000 --lr 5e-4 --threads 2 --seed 2 --name "rapport-segmentation-$4" > "$WORK/$1.log" 2>&1
  for x in onnx json record.json; do cp "$WORK/$1/net.$x" "packages/analysis/models/segmentation-$4.$x"; done
  echo "shipped: packages/analysis/models/segmentation-$4.onnx ($(sha256sum "packages/analysis/models/segmentation-$4.onnx" | cut -c1-12))"
}
finetune ft-default default rapport-seg-control-v1 2
finetune ft-meeting meeting rapport-seg-meeting-v1 3
