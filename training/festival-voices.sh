#!/usr/bin/env bash
# Extra training voices from the recorded voices of Debian's Festival speech synthesizer
# (issue 23: "recorded voices of speech synthesizers"): each festvox package is one person's
# recorded diphones (or units), so what it says carries that person's vocal tract, with the
# synthesizer's prosody. For TRAINING ONLY: they are never in the validation folds (their ids
# start with "festvox-", and eval/build-validation.ts reads only the corpus of speaker-data.sh).
#   training/festival-voices.sh OUT [UTTERANCES=80]
# Writes OUT/festvox-<voice>/NNNN.wav (16 kHz mono) and OUT/speakers.json. Each utterance is a
# seeded random sequence of 3 to 7 numbers, read in the voice's own language by Festival's
# text normalisation. Needs root for apt-get the first time.
set -euo pipefail
OUT=${1:?usage: training/festival-voices.sh OUT [UTTERANCES]}
N=${2:-80}
PKGS="festival festvox-kallpc16k festvox-kdlpc16k festvox-italp16k festvox-itapc16k festvox-czech-dita
  festvox-czech-krb festvox-czech-machac festvox-czech-ph festvox-ru festvox-suopuhe-lj festvox-suopuhe-mv
  festvox-us-slt-hts festvox-ca-ona-hts festvox-hi-nsk festvox-mr-nsk festvox-te-nsk"
command -v text2wave >/dev/null && [ -d /usr/share/festival/voices/telugu ] \
  || DEBIAN_FRONTEND=noninteractive apt-get install -y $PKGS >/dev/null
command -v sox >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y sox >/dev/null
VOICES="kal_diphone ked_diphone lp_diphone pc_diphone czech_dita czech_krb czech_machac czech_ph
  msu_ru_nsh_clunits suo_fi_lj_diphone hy_fi_mv_diphone cmu_us_slt_arctic_hts upc_ca_ona_hts
  hindi_NSK_diphone marathi_NSK_diphone telugu_NSK_diphone"
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
entries=()
for v in $VOICES; do
  id="festvox-${v%%_diphone}"
  mkdir -p "$OUT/$id"
  [ "$(ls "$OUT/$id" | wc -l)" -ge "$N" ] && done_before=1 || done_before=0
  RANDOM=$(( $(printf '%s' "$v" | cksum | cut -d' ' -f1) % 32768 ))
  total=0
  for i in $(seq 1 "$N"); do
    words=()
    for _ in $(seq 1 $(( 3 + RANDOM % 5 ))); do words+=("$(( RANDOM % 2000 ))"); done
    printf '%s.\n' "$(IFS=', '; echo "${words[*]}")" > "$TMP/t.txt"
    f=$(printf '%s/%s/%04d.wav' "$OUT" "$id" "$i")
    [ "$done_before" = 1 ] && continue
    # A voice that cannot say a number sequence (it happens) skips it; 6 dB of headroom for the
    # synthesizer's peaks.
    rm -f "$TMP/u.wav"
    text2wave -eval "(voice_$v)" "$TMP/t.txt" -o "$TMP/u.wav" 2>/dev/null || continue
    sox -V1 -q -R -v 0.5 "$TMP/u.wav" -r 16000 -c 1 -b 16 -e signed-integer "$f" 2>/dev/null || rm -f "$f"
  done
  files=$(ls "$OUT/$id" | wc -l)
  # msu_ru_nsh_clunits says nothing from digits here: a voice with no utterance is left out.
  if [ "$files" -lt $(( N / 2 )) ]; then echo "$id: $files utterances, left out" >&2; rm -rf "${OUT:?}/$id"; continue; fi
  secs=$(soxi -D "$OUT/$id"/*.wav | awk '{s += $1} END {printf "%.2f", s}')
  entries+=("{\"id\":\"$id\",\"package\":\"festival voice $v\",\"source\":\"text2wave, seeded number sequences\",\"files\":$files,\"seconds\":$secs,\"note\":\"synthesised from one person's recorded diphones or units (training only)\"}")
  echo "$id: $files utterances, $secs s" >&2
done
(IFS=','; echo "[${entries[*]}]") > "$OUT/speakers.json"
