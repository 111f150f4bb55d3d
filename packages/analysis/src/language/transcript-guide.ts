// A transcript with timed, named cues says who speaks when, and a person who wrote or checked
// it knows the voices better than any clustering without a trained model can. When such a
// transcript covers most of the detected speech, its cues become the speaker track that
// diarization trains its speaker models on (speech/diarization/diarize.ts, `guide`); otherwise the
// transcript only labels the speakers that clustering found (align.ts).
import type { SpeechSegment, Transcript } from '../types.ts';
import { nameKey } from './align.ts';
import { unionPerSpeaker } from '../speech/turns.ts';
import { renumberByFirstSpeech } from '../speech/diarization/numbering.ts';
import { DIARIZATION_SETTINGS } from '../speech/diarization/settings.ts';

/** Speakers are numbered by their first run of speech this long, as diarization numbers them. */
const FIRST_SPEECH_MIN_FRAMES = Math.round(DIARIZATION_SETTINGS.numbering.firstSpeechMinSec * 100);

/** Share of the detected speech that named cues must cover for the transcript to guide diarization. */
export const GUIDE_MIN_COVERAGE = 0.5;

/** A stretch of speech where the cues of two names overlap: both are talking. */
export interface GuideOverlap {
  start: number; // first frame
  end: number; // one past the last frame
  names: [number, number];
}

/**
 * Overlapping cues shorter than this say more about loose cue times than about overlapped speech.
 * The shortest overlap at an interruption in the dev set is 0.2 s. With cue edges moved by up to
 * ±0.15 s, 0.1 s finds 49 interruptions of which 44 true, 0.2 s 39 (38), 0.3 s 31 (30); by up to
 * ±0.3 s, 58 (30), 38 (24) and 32 (22) (docs/analysis-speech.md).
 */
export const MIN_OVERLAP_SEC = 0.2;
/** Cue agreement with the speech (cue-timing.ts) from which cue boundaries become speech boundaries. */
export const CUE_LED_MIN_AGREEMENT = 0.7;
/** Speech between two cues that no cue covers, up to this long, is the pause between them. */
export const CUE_PAUSE_MAX_SEC = 0.5;
/**
 * A stretch of one name's cues with at least this much speech, of which the voice models gave
 * the name's speaker less than DISPUTED_CUE_MAX_AGREEMENT, is taken for a misnamed cue
 * (cueLedTrack): before cue-led boundaries the models corrected such a cue (94-100 % of a
 * misnamed 3 s cue went to its true voice), and they still do. Shorter stretches always follow
 * the cue: in a quick exchange the models run short utterances into their neighbours. On the dev
 * set, whose names are all right, this costs 0.2-0.3 points of DER with jittered cues (stretches
 * of the kajongg voices the models get wrong) and nothing with exact ones.
 */
export const DISPUTED_CUE_MIN_SEC = 1.5;
export const DISPUTED_CUE_MAX_AGREEMENT = 0.2;

export interface TranscriptGuide {
  /** Per frame (10 ms): index into `names` of the one named cue covering it, -1 for none or several. */
  track: Int16Array;
  /** Per frame: 1 where some named cue covers it. */
  covered: Uint8Array;
  /** Speech covered by the cues of exactly two names for at least MIN_OVERLAP_SEC. */
  overlaps: GuideOverlap[];
  /** Display names, first spelling seen, in order of first cue. */
  names: string[];
  /** Share of the speech frames covered by some named cue. */
  coverage: number;
}

/**
 * The guide for a recording, or null when the transcript has no named timed cues or covers less
 * than GUIDE_MIN_COVERAGE of the speech (a partial or misaligned transcript must not decide who
 * speaks).
 */
export function transcriptGuide(transcript: Transcript, speech: Uint8Array): TranscriptGuide | null {
  const frames = speech.length;
  // The first and second name covering each frame (-1: none; second -2: three or more names).
  const first = new Int16Array(frames).fill(-1);
  const second = new Int16Array(frames).fill(-1);
  const names: string[] = [];
  const index = new Map<string, number>();
  for (const cue of transcript.cues) {
    if (cue.speaker === null || !(cue.end > cue.start)) continue;
    const key = nameKey(cue.speaker);
    if (key === '') continue;
    let n = index.get(key);
    if (n === undefined) {
      n = names.length;
      index.set(key, n);
      names.push(cue.speaker);
    }
    const a = Math.max(0, Math.round(cue.start * 100));
    const b = Math.min(frames, Math.round(cue.end * 100));
    for (let i = a; i < b; i++) {
      if (first[i] === -1 || first[i] === n) first[i] = n;
      else if (second[i] === -1 || second[i] === n) second[i] = n;
      else second[i] = -2;
    }
  }
  if (names.length === 0) return null;
  // Two names over one frame (overlap, or cues that disagree): the frame guides no one.
  const track = new Int16Array(frames);
  const covered = new Uint8Array(frames);
  const overlaps: GuideOverlap[] = [];
  const minOverlap = Math.round(MIN_OVERLAP_SEC * 100);
  let speechFrames = 0;
  let coveredSpeech = 0;
  let runStart = -1;
  const closeRun = (end: number): void => {
    if (runStart >= 0 && end - runStart >= minOverlap) overlaps.push({ start: runStart, end, names: [first[runStart]!, second[runStart]!] });
    runStart = -1;
  };
  for (let i = 0; i < frames; i++) {
    track[i] = second[i] === -1 ? first[i]! : -1;
    covered[i] = first[i]! >= 0 ? 1 : 0;
    const two = speech[i] === 1 && first[i]! >= 0 && second[i]! >= 0;
    if (runStart >= 0 && (!two || first[i] !== first[runStart] || second[i] !== second[runStart])) closeRun(i);
    if (two && runStart < 0) runStart = i;
    if (!speech[i]) continue;
    speechFrames++;
    if (first[i]! >= 0) coveredSpeech++;
  }
  closeRun(frames);
  const coverage = speechFrames > 0 ? coveredSpeech / speechFrames : 0;
  return coverage >= GUIDE_MIN_COVERAGE ? { track, covered, overlaps, names, coverage } : null;
}

/**
 * The diarized segments plus, where the transcript shows two named speakers talking at once over
 * speech, a segment for the one the single-speaker track left out (`labels[s]` = the transcript
 * name of speaker s). Sorted by start.
 */
export function withGuideOverlaps(segments: SpeechSegment[], guide: TranscriptGuide, labels: (string | null)[], frameSpeaker: Int16Array): SpeechSegment[] {
  const speakerOf = speakersOfNames(guide, labels);
  const extra: SpeechSegment[] = [];
  for (const o of guide.overlaps) {
    const a = speakerOf[o.names[0]]!;
    const b = speakerOf[o.names[1]]!;
    if (a < 0 || b < 0) continue;
    let runStart = -1;
    let runSpeaker = -1;
    for (let i = o.start; i <= o.end; i++) {
      const on = i < o.end ? frameSpeaker[i] : -1;
      const missing = on === a ? b : on === b ? a : -1;
      if (runStart >= 0 && missing !== runSpeaker) {
        extra.push({ speaker: runSpeaker, start: round3(runStart / 100), end: round3(i / 100) });
        runStart = -1;
      }
      if (missing >= 0 && runStart < 0) {
        runStart = i;
        runSpeaker = missing;
      }
    }
  }
  return extra.length === 0 ? segments : unionPerSpeaker([...segments, ...extra]);
}

/** The speaker each guide name labels (`labels[s]` = the transcript name of speaker s), -1 for none. */
function speakersOfNames(guide: TranscriptGuide, labels: (string | null)[]): Int16Array {
  const byKey = new Map<string, number>();
  labels.forEach((label, s) => {
    if (label !== null) byKey.set(nameKey(label), s);
  });
  return Int16Array.from(guide.names, (name) => byKey.get(nameKey(name)) ?? -1);
}

/**
 * The speaker track with the cues' own boundaries, for a transcript whose cues fit the speech
 * (agreement at least CUE_LED_MIN_AGREEMENT). The resegmentation that trained on the cues puts a
 * change of speaker only where it pays more than a fixed penalty, so it runs a quick exchange of
 * short utterances together and moves changes into overlaps; the cues, when they fit, say where
 * each utterance starts and ends. So every speech frame that exactly one name's cue covers goes
 * to that name's speaker, and speech that no cue covers, between two cues and up to
 * CUE_PAUSE_MAX_SEC long, is the pause between them (voice activity bridges such pauses). Frames
 * several names cover (overlaps, withGuideOverlaps) or none keep the resegmentation's speaker.
 * Returns a new track and the labels, speakers renumbered by first speech again, and the
 * resegmentation's own track under the new numbers (`voiceTrack`, for voiceprints); null when a
 * speaker would be left with no speech (the resegmentation's track is then kept).
 */
export function cueLedTrack(frameSpeaker: Int16Array, guide: TranscriptGuide, labels: (string | null)[], speech: Uint8Array): { frameSpeaker: Int16Array; labels: (string | null)[]; voiceTrack: Int16Array } | null {
  const speakerOf = speakersOfNames(guide, labels);
  const out = Int16Array.from(frameSpeaker);
  const minDisputed = Math.round(DISPUTED_CUE_MIN_SEC * 100);
  let i = 0;
  while (i < out.length) {
    const name = guide.track[i]!;
    const speaker = name >= 0 ? speakerOf[name]! : -1;
    let j = i + 1;
    while (j < out.length && guide.track[j] === name) j++;
    if (speaker >= 0) {
      // A stretch of one name's cues that the voice models gave to other speakers, and long
      // enough for them to have had the choice, is taken for a misnamed cue: the models'
      // speakers stay.
      let voiced = 0;
      let agree = 0;
      for (let k = i; k < j; k++)
        if (speech[k] && frameSpeaker[k]! >= 0) {
          voiced++;
          if (frameSpeaker[k] === speaker) agree++;
        }
      const disputed = voiced >= minDisputed && agree < DISPUTED_CUE_MAX_AGREEMENT * voiced;
      if (!disputed) for (let k = i; k < j; k++) if (speech[k]) out[k] = speaker;
    }
    i = j;
  }
  const maxPause = Math.round(CUE_PAUSE_MAX_SEC * 100);
  i = 0;
  while (i < out.length) {
    if (guide.covered[i] || !speech[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && !guide.covered[j] && speech[j]) j++;
    if (i > 0 && guide.covered[i - 1] && j < out.length && guide.covered[j] && j - i <= maxPause) out.fill(-1, i, j);
    i = j;
  }
  const order = renumberByFirstSpeech(out, FIRST_SPEECH_MIN_FRAMES);
  if (order.size !== labels.length) return null;
  const renumbered: (string | null)[] = labels.map(() => null);
  order.forEach((to, from) => (renumbered[to] = labels[from] ?? null));
  const voiceTrack = frameSpeaker.map((s) => (s >= 0 ? (order.get(s) ?? -1) : s));
  return { frameSpeaker: out, labels: renumbered, voiceTrack };
}

/**
 * One segment per stretch of a speaker's speech: an overlap piece joins the speaker's own segment
 * that it touches, so that an interruption starts where the interrupter's voice starts and is not
 * taken for a short utterance inside the other's speech.
 */
function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
