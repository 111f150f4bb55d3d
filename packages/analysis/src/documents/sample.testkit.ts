// One generated matching result and one report, the same on every run: the documentation's
// snapshot (docs/results.md) and the HTML report's browser test are made from them. Two seeded
// synthetic conversations through the engine's real behavior stage; one has a transcript.
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { acousticFor, conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import type { MediaFixture } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis, Transcript } from '../types.ts';
import { buildMatching } from './matching.ts';
import type { BuiltDocument } from './matching.ts';
import { buildReport } from './report.ts';
import type { MemberInput } from './types.ts';

const LINES = [
  ['How did the launch go on your side?', 'I think it went well, maybe a little rushed at the end.'],
  ['We shipped on time, which surprised everyone.', 'What would you change for the next one?'],
  ['Honestly, I guess we could plan the testing earlier.', 'That makes sense. We all felt the crunch.'],
] as const;

function sampleMedia(): Record<string, MediaAnalysis> {
  const interview = conversation(41, 60, true);
  const transcript: Transcript = {
    format: 'json',
    cues: interview.turns.map((t, k) => ({
      speaker: t.speaker === 0 ? 'Ada' : 'Guest',
      start: t.start,
      end: t.end,
      text: LINES[k % LINES.length]?.[t.speaker] ?? 'Right.',
    })),
  };
  // Voice statistics as the speech stage reports them: pitch in semitones above 27.5 Hz, and
  // syllables and phonation time in proportion to each speaker's speech (4.3 and 3.9 syllables
  // per second of speech, phonation 80 % of it).
  const voices = (f: MediaFixture, a: number, b: number) => {
    const speech = (s: number) => f.turns.filter((t) => t.speaker === s).reduce((sum, t) => sum + t.end - t.start, 0);
    const [s0, s1] = [speech(0), speech(1)];
    return [
      acousticFor(0, { pitchMedianSt: a, pitchRangeSt: 7.5, pitchVariabilitySt: 2.4, loudnessMeanDb: -23, syllables: Math.round(4.3 * s0), phonationSec: 0.8 * s0, voicedSec: 0.6 * s0 }),
      acousticFor(1, { pitchMedianSt: b, pitchRangeSt: 5.2, pitchVariabilitySt: 1.6, loudnessMeanDb: -27, syllables: Math.round(3.9 * s1), phonationSec: 0.8 * s1, voicedSec: 0.6 * s1 }),
    ];
  };
  const standup = conversation(42, 40, false);
  // As the engine records it (SpeakerAnalysis.separation): voices that separate cleanly.
  const separated = (a: MediaAnalysis): MediaAnalysis => ({ ...a, speakers: a.speakers.map((x) => ({ ...x, separation: 0.98 })) });
  return {
    // Neither shows overlapped speech (no cue overlaps another; audio alone has one speaker at a
    // time), so interruptions, backchannels and overlap are not measured, as analyze() decides.
    med_interview: separated(makeMedia({ ...interview, transcript, acoustic: voices(interview, 31, 24), overlapMeasured: false })),
    med_standup: separated(makeMedia({ ...standup, acoustic: voices(standup, 26, 33), overlapMeasured: false })),
  };
}

function member(media: Record<string, MediaAnalysis>, ref: string, mediaId: string, speakerIndex: number, name: { label: string } | { file: string }): MemberInput {
  const metrics = aggregateMetrics([{ metrics: media[mediaId]!.speakers[speakerIndex]!.metrics }]);
  const base = { ref, entityId: null, metrics, appearances: [{ mediaId, speakerIndex }] };
  return 'label' in name ? { ...base, name: name.label } : { ...base, name: `Speaker ${speakerIndex + 1} in ${name.file}`, shortName: `Speaker ${speakerIndex + 1}` };
}

/** Ada (labelled) with the unnamed second speaker of interview.wav (they met) and Ben (never met her). */
export function sampleMatching(): BuiltDocument {
  const media = sampleMedia();
  return buildMatching({
    target: member(media, 'target', 'med_interview', 0, { label: 'Ada' }),
    group: [member(media, 'group[0]', 'med_interview', 1, { file: 'interview.wav' }), member(media, 'group[1]', 'med_standup', 0, { label: 'Ben' })],
    media,
  });
}

export function sampleReport(): BuiltDocument {
  const media = sampleMedia();
  return buildReport({ target: member(media, 'target', 'med_standup', 1, { file: 'standup.m4a' }), media });
}
