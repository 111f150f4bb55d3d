// A transcript on its own (decisions §19): the analysis of its cues, with no audio. The cues'
// names are the speakers, their times the speech track (turns, gaps, pauses, overlaps), their
// text the language measures; what only a voice shows (pitch, loudness, pace from syllables,
// voiceprints) is not measured, and the analysis says so (method.notMeasured), so that nothing
// reads a missing voice as a quiet or monotone one.
import type { MediaAnalysis, SpeakerAnalysis, SpeakerMetrics, SpeechSegment, Transcript, Turn } from './types.ts';
import { ENGINE_VERSION } from './types.ts';
import { computeSpeakerMetrics } from './behavior/speaker-metrics.ts';
import { unionIntervals } from './behavior/stats.ts';
import { someTwoOverlap } from './behavior/speaker-overlap.ts';
import { nameKey } from './language/align.ts';
import { MIN_OVERLAP_SEC } from './language/transcript-guide.ts';
import { groupTurns, unionPerSpeaker } from './speech/turns.ts';
import { CUES_ONLY_METHOD } from './method-names.ts';

/** What a transcript cannot measure without its audio, and why (method.notMeasured). */
export const NO_AUDIO_MEASURES = [
  'speakingRateSylPerSec', 'articulationRateSylPerSec', 'pitchMedianSt', 'pitchRangeSt', 'pitchVariabilitySt', 'loudnessMeanDb', 'loudnessVariabilityDb',
] as const satisfies readonly (keyof SpeakerMetrics)[];
export const NO_AUDIO_REASON = 'no audio';

export { CUES_ONLY_METHOD } from './method-names.ts';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Speakers numbered by their first cue, as the engine numbers voices by first speech. Names are
 * the same speaker whatever their case or spacing (the first spelling is kept); unnamed cues
 * are one speaker without a name.
 */
function speakersOf(transcript: Transcript): { labels: (string | null)[]; cueSpeaker: number[] } {
  const labels: (string | null)[] = [];
  const seen = new Map<string | null, number>();
  const cueSpeaker = transcript.cues.map((c) => {
    const key = c.speaker === null ? null : nameKey(c.speaker);
    const at = seen.get(key);
    if (at !== undefined) return at;
    seen.set(key, labels.length);
    labels.push(c.speaker);
    return labels.length - 1;
  });
  return { labels, cueSpeaker };
}

/**
 * Whether the cues show two speakers at once anywhere (at least MIN_OVERLAP_SEC between two
 * speakers, as a guiding transcript's overlaps are found). Captions that never overlap say
 * nothing about overlapped speech: there, interruptions, backchannels and overlap are not
 * measured rather than zero (the rule of overlapCounting, language/cue-timing.ts).
 */
function cuesOverlap(own: readonly (readonly SpeechSegment[])[]): boolean {
  // Pairs of speakers summed in one walk per speaker, not a set of every pair that meets: a
  // crowd of names at one moment made millions (speaker-overlap.ts).
  return someTwoOverlap(own.map((list) => unionIntervals(list)), MIN_OVERLAP_SEC);
}

/** Turns from the cue track: the same grouping as from audio (groupTurns), with no prosody. */
function turnsOf(segments: readonly SpeechSegment[]): Turn[] {
  return groupTurns(segments).map((span): Turn => ({
    speaker: span.speaker,
    start: span.start,
    end: span.end,
    pitchSt: null,
    loudnessDb: null,
    rateSylPerSec: null,
    initialPitchSt: null,
    finalPitchSt: null,
    initialLoudnessDb: null,
    finalLoudnessDb: null,
    interrupts: span.interrupts,
    backchannel: span.backchannel,
  }));
}

/** The MediaAnalysis of a transcript without audio: a pure function of its cues. */
export function analyzeTranscript(transcript: Transcript): MediaAnalysis {
  const { labels, cueSpeaker } = speakersOf(transcript);
  const timed = transcript.cues.flatMap((c, k): SpeechSegment[] => (c.end > c.start ? [{ speaker: cueSpeaker[k]!, start: round3(c.start), end: round3(c.end) }] : []));
  // Each speaker's cues joined where they touch or overlap: one speaker's speech is counted once.
  const segments = unionPerSpeaker(timed);
  const durationSec = round3(transcript.cues.reduce((m, c) => Math.max(m, c.end), 0));
  // Each speaker's segments, grouped once: a filter per speaker is quadratic with a name per cue.
  const own = labels.map((): SpeechSegment[] => []);
  for (const g of segments) own[g.speaker]!.push(g);
  const overlapMeasured = cuesOverlap(own);
  const turns = turnsOf(segments);
  const metrics = computeSpeakerMetrics({ durationSec, segments, turns, acoustic: [], transcript, labels, overlapMeasured });
  const speakers: SpeakerAnalysis[] = labels.map((label, s) => {
    const mine = own[s]!;
    return {
      index: s,
      speechSec: round3(mine.reduce((a, g) => a + g.end - g.start, 0)),
      firstSpeechSec: mine[0]?.start ?? 0,
      label,
      // No voice: nothing to link across recordings (decisions §19).
      voiceprint: [],
      metrics: metrics[s]!,
    };
  });
  const overlaps = overlapMeasured
    ? 'overlapping cues are overlapped speech'
    : 'no two cues overlap, so the transcript cannot show overlapped speech: interruptions, backchannels and overlapped time are not measured';
  return {
    version: 1,
    engineVersion: ENGINE_VERSION,
    durationSec,
    segments,
    speakers,
    turns,
    transcript,
    method: {
      vad: 'none (no audio): speech is where the cues are',
      diarization: `${CUES_ONLY_METHOD}; ${overlaps}`,
      voiceprint: 'none (no audio: speakers are not linked across recordings by voice)',
      realTimeFactor: null,
      overlapMeasured,
      notMeasured: { measures: [...NO_AUDIO_MEASURES], reason: NO_AUDIO_REASON },
    },
  };
}
