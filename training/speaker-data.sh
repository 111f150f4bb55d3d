#!/usr/bin/env bash
# Build a speaker-labelled corpus of real recorded human speech from Debian
# packages, for training the diarization speaker transform (LDA).
#
#   usage: training/speaker-data.sh [OUT_DIR] [CACHE_DIR]
#          (defaults: /work/spk-train  /work/spk-cache)
#
# Output: OUT/<speaker-id>/<NNNN>.wav (16 kHz mono s16 PCM, 0.3 s .. 30 s per clip,
#         >= 20 s per speaker), OUT/speakers.json, OUT/skipped.json.
# Cache:  CACHE/debs/*.deb (apt-get download), CACHE/x/<pkg>/ (dpkg-deb -x, ...).
# Re-running reuses the cache; OUT is rebuilt from it.
#
# Never used (evaluation voices / synthetic): asterisk-core-sounds-*, kajongg,
# codec2-examples, pocketsphinx-testdata, festival/festvox, espeak, mbrola, TTS.
#
# Needs: apt-get, dpkg-deb, unzip, sox, ffmpeg (installed if missing), python3 + numpy
# (python3-numpy installed if missing).
set -euo pipefail

OUT=${1:-/work/spk-train}
CACHE=${2:-/work/spk-cache}
MAX_DEB_BYTES=$((1500 * 1000 * 1000))   # skip absurdly large packages
JOBS=$(nproc 2>/dev/null || echo 2)

log() { printf '[speaker-data] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------- tools
if ! command -v ffmpeg >/dev/null; then
  log "installing ffmpeg"
  apt-get install -y ffmpeg >/dev/null || { apt-get update >/dev/null && apt-get install -y ffmpeg >/dev/null; } \
    || die "cannot install ffmpeg"
fi
for t in apt-get apt-cache dpkg-deb unzip sox ffmpeg; do
  command -v "$t" >/dev/null || die "missing tool: $t"
done
PY=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
  log "installing python3-numpy"
  apt-get install -y python3-numpy >/dev/null || die "cannot install python3-numpy"
  PY=/usr/bin/python3
fi

# ---------------------------------------------------------------- packages
# Used packages. gcompris-qt-data is downloaded and checked for voice packs.
PKGS=(gcompris-qt-data ktuberling-data klettres-data asterisk-prompt-fr-armelle
      asterisk-prompt-es-co
      0ad-data openarena-data hedgewars-data)
# Inspected and skipped on purpose (not downloaded by this script).
declare -A SKIP_REASON=(
  [redeclipse-data]="sounds/voice holds ~30 s of taunts in x/x2 variant pairs that plausibly are two voices (<20 s each after a split); sounds/announcer (43 s) is effect-processed and mixed with SFX; sounds/player is grunts only"
  [megaglest-data]="unit lines are short ack/select barks; same unit names recur across factions and commondata (one 'speaker' would mix several actors), many creature voices are pitch/effect processed, and no clean per-unit set reaches 20 s"
)
FORBIDDEN='^(asterisk-core-sounds-.*|asterisk-prompt-it-menardi.*|fillets-ng-data.*|kajongg|codec2-examples|pocketsphinx-testdata|festival.*|festvox.*|espeak.*|mbrola.*|.*tts.*)$'
for p in "${PKGS[@]}"; do
  [[ $p =~ $FORBIDDEN ]] && die "forbidden package in list: $p"
done

mkdir -p "$CACHE/debs" "$CACHE/x" "$OUT"
SKIPPED_TSV=$(mktemp); PLAN=$(mktemp)
trap 'rm -f "$SKIPPED_TSV" "$PLAN"' EXIT
for p in "${!SKIP_REASON[@]}"; do printf '%s\t%s\n' "$p" "${SKIP_REASON[$p]}" >>"$SKIPPED_TSV"; done

deb_of() { ls "$CACHE"/debs/"$1"_*.deb 2>/dev/null | head -n1; }

fetch() {  # fetch PKG -> prints deb path, or nothing if skipped for size
  local p=$1 deb size
  deb=$(deb_of "$p")
  if [ -z "$deb" ]; then
    size=$(apt-cache show "$p" 2>/dev/null | awk '/^Size:/{print $2; exit}')
    if [ -z "$size" ]; then
      apt-get update >/dev/null
      size=$(apt-cache show "$p" | awk '/^Size:/{print $2; exit}')
    fi
    [ -n "$size" ] || die "package not found: $p"
    if [ "$size" -gt "$MAX_DEB_BYTES" ]; then
      printf '%s\t%s\n' "$p" "download size $size bytes > 1.5 GB" >>"$SKIPPED_TSV"; return 0
    fi
    log "apt-get download $p"
    (cd "$CACHE/debs" && apt-get download "$p" >/dev/null 2>&1) || die "apt-get download $p failed"
    deb=$(deb_of "$p"); [ -n "$deb" ] || die "no .deb for $p after download"
  fi
  echo "$deb"
}

extract() {  # extract PKG DEB [tar-member-pattern]  (idempotent via marker)
  local p=$1 deb=$2 pat=${3:-} d="$CACHE/x/$1"
  [ -f "$d/.extracted" ] && return 0
  rm -rf "$d"; mkdir -p "$d"
  log "extracting $p"
  if [ -n "$pat" ]; then
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$d" --wildcards "$pat" || die "extract $p failed"
  else
    dpkg-deb -x "$deb" "$d" || die "dpkg-deb -x $p failed"
  fi
  touch "$d/.extracted"
}

# plan line: id \t package \t source \t language \t note \t file
plan() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$PLAN"; }

# ---- gcompris-qt-data: only if the Debian package ships voice packs
deb=$(fetch gcompris-qt-data)
if [ -n "$deb" ]; then
  if dpkg-deb -c "$deb" | grep -qiE 'voices[-_/][^ ]*\.(rcc|ogg|mp3|wav)$'; then
    die "gcompris-qt-data now ships voices: extend this script to use them"
  fi
  printf '%s\t%s\n' gcompris-qt-data "Debian package ships no voice packs (voices-<lang>.rcc are downloaded by the app at run time); its rcc files hold only music/SFX" >>"$SKIPPED_TSV"
fi

# ---- ktuberling-data: one folder per language (split by pitch later if mixed)
deb=$(fetch ktuberling-data)
extract ktuberling-data "$deb"
KT="$CACHE/x/ktuberling-data/usr/share/ktuberling/sounds"
for d in "$KT"/*/; do
  lang=$(basename "$d")
  [[ $lang == *@* ]] && continue          # sr@latin etc. duplicate sr
  find "$d" -maxdepth 1 -type f \( -name '*.wav' -o -name '*.ogg' -o -name '*.opus' -o -name '*.flac' \) | sort |
    while read -r f; do
      plan "ktuberling-$lang" ktuberling-data "usr/share/ktuberling/sounds/$lang" "$lang" \
        "one folder per language (single word prompts)" "$f"
    done
done

# ---- klettres-data: letters and syllables read aloud, one folder (alpha + syllab) per language
deb=$(fetch klettres-data)
extract klettres-data "$deb"
KL="$CACHE/x/klettres-data/usr/share/klettres"
for d in "$KL"/*/; do
  lang=$(basename "$d")
  find "$d" -type f -name '*.ogg' | sort | while read -r f; do
    plan "klettres-$(echo "$lang" | tr 'A-Z_' 'a-z-')" klettres-data "usr/share/klettres/$lang" "$lang" \
      "one reader per language folder assumed (letters and syllables)" "$f"
  done
done

# ---- asterisk prompt packages: one package = one speaker
ast() {  # ast PKG SUBDIR LANG NOTE
  local p=$1 sub=$2 lang=$3 note=$4 deb
  deb=$(fetch "$p"); extract "$p" "$deb"
  find "$CACHE/x/$p/$sub" -type f \( -name '*.gsm' -o -name '*.wav' -o -name '*.ulaw' -o -name '*.alaw' \) |
    grep -viE '/silence/|beep|tone|/ring|busy|dial-?tone' | sort |
    while read -r f; do plan "$p" "$p" "$sub" "$lang" "$note" "$f"; done
}
ast asterisk-prompt-fr-armelle usr/share/asterisk/sounds/fr fr "Armelle, 8 kHz GSM telephony prompts"
ast asterisk-prompt-es-co usr/share/asterisk/sounds/es es "July E. Jimenez (Colombian accent), 8 kHz GSM telephony prompts; beeps dropped"

# ---- 0ad-data: audio/voice/<civ-language>/civ/civ_<gender>_*.ogg inside public.zip
deb=$(fetch 0ad-data)
if [ -n "$deb" ]; then
  Z="$CACHE/x/0ad-data"
  if [ ! -f "$Z/.voice-extracted" ]; then
    extract 0ad-data "$deb" './usr/share/games/0ad/mods/public/public.zip'
    rm -rf "$Z/voice"
    unzip -q -o "$Z/usr/share/games/0ad/mods/public/public.zip" 'audio/voice/*.ogg' 'audio/LICENSE.txt' -d "$Z/voice" \
      || die "unzip 0ad voice failed"
    rm -f "$Z/usr/share/games/0ad/mods/public/public.zip"   # 3.2 GB, not needed once voices are out
    touch "$Z/.voice-extracted"
  fi
  declare -A L0AD=([greek]=grc [latin]=la [persian]=peo [napatan]=xmr)
  for d in "$Z"/voice/audio/voice/*/civ; do
    civ=$(basename "$(dirname "$d")")
    for g in female male; do
      find "$d" -maxdepth 1 -name "civ_${g}_*.ogg" | sort | while read -r f; do
        plan "0ad-$civ-$g" 0ad-data "public.zip:audio/voice/$civ/civ (civ_${g}_*)" "${L0AD[$civ]:-und}" \
          "one voice per civ language and gender assumed (citizen unit lines)" "$f"
      done
    done
  done
fi

# ---- openarena-data: mp-pak0.pk3 sound/voices/rott (festivoxmale is TTS: never used)
deb=$(fetch openarena-data)
extract openarena-data "$deb"
O="$CACHE/x/openarena-data"
if [ ! -f "$O/.voice-extracted" ]; then
  rm -rf "$O/voice"
  unzip -q -o "$O/usr/share/games/openarena/missionpack/mp-pak0.pk3" 'sound/voices/rott/*' -d "$O/voice" \
    || die "unzip openarena voices failed"
  touch "$O/.voice-extracted"
fi
find "$O/voice/sound/voices/rott" -name '*.ogg' | sort | while read -r f; do
  plan openarena-rott openarena-data "mp-pak0.pk3:sound/voices/rott" en \
    "bot chat voice credited to RottKing; sound/voices/festivoxmale (festival TTS) and sarge grunts excluded" "$f"
done

# ---- hedgewars-data: Data/Sounds/voices/<pack>, one pack = one character voice
deb=$(fetch hedgewars-data)
extract hedgewars-data "$deb"
H="$CACHE/x/hedgewars-data/usr/share/games/hedgewars/Data/Sounds/voices"
for d in "$H"/*/; do
  pack=$(basename "$d")
  [ "$pack" = Robot ] && continue   # vocoded robot voice: not natural speech
  case $pack in
    *_es) lang=es ;; *_pl) lang=pl ;; *_ru) lang=ru ;; *_uk) lang=uk ;; *) lang=en ;;
  esac
  find "$d" -maxdepth 1 -type f \( -name '*.ogg' -o -name '*.wav' \) |
    grep -vE '/(Jump[0-9]*|Ow[0-9]*|Ooff[0-9]*|Firepunch[0-9]*|PoisonCough|PoisonMoan)\.' | sort |
    while read -r f; do
      plan "hedgewars-$(echo "$pack" | tr 'A-Z_' 'a-z-')" hedgewars-data "usr/share/games/hedgewars/Data/Sounds/voices/$pack" "$lang" \
        "character voice pack; non-verbal jump/pain/punch/cough clips dropped; packs may share a voice actor" "$f"
    done
done

# ---------------------------------------------------------------- guard
if cut -f6 "$PLAN" | grep -qiE 'festvox|festivox|festival|espeak|mbrola|asterisk-core-sounds|menardi|fillets|kajongg|codec2|pocketsphinx'; then
  die "a forbidden source slipped into the plan"
fi
[ -s "$PLAN" ] || die "empty plan"
log "planned $(wc -l <"$PLAN") clips"

# ---------------------------------------------------------------- convert
STAGE="$OUT/.stage"
rm -rf "$STAGE"; mkdir -p "$STAGE"
awk -F'\t' -v s="$STAGE" '{printf "%s\t%s/%06d.wav\n", $6, s, NR}' "$PLAN" >"$STAGE/jobs.tsv"
export -f log
convert_one() {
  local in=$1 out=$2
  ffmpeg -nostdin -v error -y -i "$in" -vn -ac 1 -ar 16000 -c:a pcm_s16le -f wav "$out" 2>>"${out%/*}/ffmpeg.err" \
    || sox -q -R -D "$in" -r 16000 -c 1 -b 16 -e signed-integer "$out" 2>>"${out%/*}/ffmpeg.err" \
    || { echo "convert failed: $in" >>"${out%/*}/failed.txt"; rm -f "$out"; }   # sox copes with truncated .gsm
}
export -f convert_one
tr '\t' '\0' <"$STAGE/jobs.tsv" | tr '\n' '\0' | xargs -0 -n2 -P "$JOBS" bash -c 'convert_one "$0" "$1"'
if [ -s "$STAGE/failed.txt" ]; then
  log "conversion failures:"; cat "$STAGE/failed.txt" >&2; die "some clips failed to convert"
fi

# ---------------------------------------------------------------- finalize
"$PY" - "$PLAN" "$STAGE" "$OUT" "$SKIPPED_TSV" <<'PYEOF'
import sys, os, json, wave, shutil, math
import numpy as np
plan_path, stage, out, skipped_path = sys.argv[1:5]
MIN_CLIP, MAX_CLIP, MIN_SPK = 0.3, 30.0, 20.0
rows = [l.rstrip('\n').split('\t') for l in open(plan_path, encoding='utf-8')]

def read(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)

def f0_frames(x, fs=16000, N=640, hop=160):
    out = []
    if len(x) < N: return out
    peak = np.abs(x).max() or 1.0
    lo, hi = fs // 400, fs // 60
    for i in range(0, len(x) - N, hop):
        fr = x[i:i + N] - x[i:i + N].mean()
        if math.sqrt((fr ** 2).mean()) < 0.05 * peak: continue
        ac = np.correlate(fr, fr, 'full')[N - 1:]
        k = lo + int(np.argmax(ac[lo:hi]))
        if ac[k] > 0.5 * ac[0]: out.append(fs / k)
    return out

# collect clips per planned speaker
spk = {}
for i, (sid, pkg, src, lang, note, f) in enumerate(rows, 1):
    wav = os.path.join(stage, '%06d.wav' % i)
    if not os.path.exists(wav): continue
    n = (os.path.getsize(wav) - 44) / 32000.0
    with wave.open(wav) as w: n = w.getnframes() / 16000.0
    if n < MIN_CLIP or n > MAX_CLIP: continue
    s = spk.setdefault(sid, dict(id=sid, package=pkg, source=src, language=lang, note=note, clips=[]))
    s['clips'].append((f, wav, n))

# ktuberling: folders were recorded theme by theme; split a language in two
# when theme groups differ clearly in median pitch (plausibly two people).
def theme(f):
    b = os.path.basename(f)
    return b.split('_', 1)[0] if '_' in b else '(base)'
for sid in [k for k in spk if k.startswith('ktuberling-')]:
    s = spk[sid]
    groups = {}
    for c in s['clips']: groups.setdefault(theme(c[0]), []).append(c)
    med = {}
    for g, cl in groups.items():
        fr = []
        for c in cl: fr += f0_frames(read(c[1]))
        if len(cl) >= 3 and len(fr) >= 20: med[g] = float(np.median(fr))
    if len(med) < 2: continue
    order = sorted(med, key=med.get)
    gaps = [(math.log(med[order[j + 1]] / med[order[j]]), j) for j in range(len(order) - 1)]
    gap, j = max(gaps)
    if gap < math.log(1.25): continue
    lo_set, cut = set(order[:j + 1]), math.sqrt(med[order[j]] * med[order[j + 1]])
    def side(g):
        if g in med: return 'a' if g in lo_set else 'b'
        fr = []
        for c in groups[g]: fr += f0_frames(read(c[1]))
        return 'a' if (not fr or float(np.median(fr)) < cut) else 'b'
    parts = {'a': [], 'b': []}
    for g, cl in groups.items(): parts[side(g)] += cl
    del spk[sid]
    for tag, cl in parts.items():
        themes = sorted({theme(c[0]) for c in cl})
        hz = [round(med[g]) for g in themes if g in med]
        spk[sid + '-' + tag] = dict(s, id=sid + '-' + tag, clips=cl,
            note=s['note'] + '; folder split by theme-set median pitch (heuristic, %s F0 ~%s Hz): themes %s'
                 % ('lower' if tag == 'a' else 'higher', hz, ','.join(themes)))

# write speakers
for d in os.listdir(out):
    p = os.path.join(out, d)
    if d != '.stage' and os.path.isdir(p): shutil.rmtree(p)
manifest, dropped = [], []
for sid in sorted(spk):
    s = spk[sid]
    total = sum(c[2] for c in s['clips'])
    if total < MIN_SPK:
        dropped.append(dict(id=sid, package=s['package'], source=s['source'], files=len(s['clips']),
                            seconds=round(total, 2), reason='less than 20 s of speech'))
        continue
    d = os.path.join(out, sid); os.makedirs(d)
    for k, (f, wav, n) in enumerate(sorted(s['clips']), 1):
        os.replace(wav, os.path.join(d, '%04d.wav' % k))
    manifest.append(dict(id=sid, package=s['package'], source=s['source'], language=s['language'],
                         files=len(s['clips']), seconds=round(total, 2), note=s['note']))
json.dump(manifest, open(os.path.join(out, 'speakers.json'), 'w'), indent=1, ensure_ascii=False)
skipped = [dict(package=p, reason=r) for p, r in
           (l.rstrip('\n').split('\t', 1) for l in open(skipped_path, encoding='utf-8'))]
json.dump(dict(skipped_packages=sorted(skipped, key=lambda x: x['package']), dropped_speakers=dropped),
          open(os.path.join(out, 'skipped.json'), 'w'), indent=1, ensure_ascii=False)
tot = sum(m['seconds'] for m in manifest)
print('speakers=%d files=%d hours=%.3f' % (len(manifest), sum(m['files'] for m in manifest), tot / 3600))
by = {}
for m in manifest:
    b = by.setdefault(m['package'], [0, 0, 0.0]); b[0] += 1; b[1] += m['files']; b[2] += m['seconds']
for p, (n, f, sec) in sorted(by.items()):
    print('  %-32s speakers=%-3d files=%-5d minutes=%.1f' % (p, n, f, sec / 60))
PYEOF
rm -rf "$STAGE"
log "done: $OUT"
