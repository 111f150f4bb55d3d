#!/usr/bin/env bash
# The real-voice corpus (../shared/datasets/real-voices, 716 speakers; its README gives sources,
# licences and attribution) decoded into the folder layout every trainer and validation builder
# here reads: OUT/<corpus>-<speaker>/NNN.wav (16 kHz mono PCM) and OUT/speakers.json
# ([{ id, package, sex, age, seconds, files }], package = the source corpus); the shared noise
# recordings and room impulse responses as OUT/_noise/*.wav and OUT/_rir/*.wav.
#
#   training/real-voices-corpus.sh [SHARED=../shared/datasets/real-voices] [OUT=/work/rv-corpus]
#
# The data stays outside the repository: nothing here is committed. Needs Debian's ffmpeg (Opus).
# Two decodes at a time; about 4 minutes on 2 cores. Re-running skips files already decoded.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${1:-../shared/datasets/real-voices}
OUT=${2:-/work/rv-corpus}
command -v ffmpeg >/dev/null || apt-get install -y ffmpeg >/dev/null
[ -f "$SHARED/manifest.tsv" ] || { echo "no $SHARED/manifest.tsv" >&2; exit 2; }
mkdir -p "$OUT"
# One line per speaker file: source path and target path (utterances numbered in manifest order).
awk -F'\t' -v src="$SHARED" -v out="$OUT" 'NR > 1 && $3 ~ /^speakers\// {
  id = $1 "-" $2; n[id]++
  printf "%s/%s\t%s/%s/%03d.wav\n", src, $3, out, id, n[id] - 1
}' "$SHARED/manifest.tsv" > "$OUT/.jobs.tsv"
cut -f2 "$OUT/.jobs.tsv" | xargs -n1 dirname | sort -u | xargs mkdir -p
decode() {
  [ -s "$2" ] && return 0
  ffmpeg -nostdin -loglevel error -i "$1" -ar 16000 -ac 1 -c:a pcm_s16le -f wav "$2.tmp" && mv "$2.tmp" "$2"
}
export -f decode
tr '\t' '\n' < "$OUT/.jobs.tsv" | xargs -d '\n' -n2 -P2 bash -c 'decode "$0" "$1"'
# Augmentation material: real background noise (OUT/_noise) and room impulse responses (OUT/_rir).
mkdir -p "$OUT/_noise" "$OUT/_rir"
for f in "$SHARED"/noise/speech-commands/*.opus; do decode "$f" "$OUT/_noise/$(basename "${f%.*}").wav"; done
for f in "$SHARED"/noise/rir/*.flac; do decode "$f" "$OUT/_rir/$(basename "${f%.*}").wav"; done
/usr/bin/python3 - "$SHARED/speakers.tsv" "$OUT" <<'PY'
import csv, json, os, sys
tsv, out = sys.argv[1], sys.argv[2]
rows = []
for r in csv.DictReader(open(tsv), delimiter='\t'):
    sid = f"{r['corpus']}-{r['speaker']}"
    if not os.path.isdir(os.path.join(out, sid)):
        continue
    rows.append(dict(id=sid, package=r['corpus'], sex=r['sex'] or None, age=r['age'] or None,
                     seconds=float(r['seconds']), files=len([f for f in os.listdir(os.path.join(out, sid)) if f.endswith('.wav')])))
json.dump(rows, open(os.path.join(out, 'speakers.json'), 'w'), indent=1)
print(f"{len(rows)} speakers, {sum(r['seconds'] for r in rows) / 3600:.2f} h in {out}", file=sys.stderr)
PY
