#!/usr/bin/env bash
# Rebuilds the window embedding's LDA and its three fold models, reproducibly:
#   training/train-lda-folds.sh [CORPUS=/work/spk-train] [WORK=/work/spk-lda] [extra train-speaker-lda.ts options]
# 1. the corpus (training/speaker-data.sh) when CORPUS has none;
# 2. one model per leave-voices-out fold, trained without that fold's voices (WORK/fold-K.json,
#    for the speaker-disjoint validation: npm run eval:folds -- --val VAL --models WORK);
# 3. the model on every voice (WORK/speaker-lda.model.ts), ready to copy over
#    packages/analysis/src/speech/diarization/speaker-lda.model.ts once it wins on the folds.
# The fold of a voice is eval/validation-corpus.ts's foldOf, as the validation builder's. Voices
# whose id starts with "festvox-" (training/festival-voices.sh) are training-only: never in a
# validation fold, so no fold model leaves them out.
# Not run by install or CI. The folds train side by side (a few minutes each on one core).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-/work/spk-train}
WORK=${2:-/work/spk-lda}
shift $(( $# < 2 ? $# : 2 ))
NODE=node_modules/.bin/node
[ -f "$CORPUS/speakers.json" ] || training/speaker-data.sh "$CORPUS"
mkdir -p "$WORK"
pids=()
for k in 0 1 2; do
  ids=$("$NODE" -e "
    const { readdirSync, statSync } = require('node:fs');
    import('./eval/validation-corpus.ts').then(({ foldOf }) => console.log(readdirSync('$CORPUS')
      .filter((d) => statSync('$CORPUS/' + d).isDirectory() && !d.startsWith('festvox-') && foldOf(d, 3) === $k).join(',')));")
  "$NODE" training/train-speaker-lda.ts --data "$CORPUS" --out "$WORK/fold-$k.json" --exclude "$ids" "$@" > "$WORK/fold-$k.log" 2>&1 &
  pids+=($!)
done
"$NODE" training/train-speaker-lda.ts --data "$CORPUS" --out "$WORK/speaker-lda.model.ts" "$@" > "$WORK/all.log" 2>&1
for p in "${pids[@]}"; do wait "$p"; done
tail -n1 "$WORK"/*.log
