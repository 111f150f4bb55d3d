import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSamples } from '../../analyze.ts';
import { EngineError, type MediaAnalysis } from '../../types.ts';
import { synthConversation, addNoise, prng, renderSpeech, type SyntheticTurn } from '../synthetic.ts';

const MAN = { f0: 110, formantScale: 1 };
const WOMAN = { f0: 220, formantScale: 1.2 };

/** Share of time inside reference turns (0.3 s from their edges) given to the right speaker. */
function accuracy(a: MediaAnalysis, turns: SyntheticTurn[]): number {
  let ok = 0;
  let total = 0;
  for (const t of turns)
    for (let x = t.start + 0.3; x < t.end - 0.3; x += 0.05) {
      total++;
      if (a.segments.find((s) => s.start <= x && s.end > x)?.speaker === t.speaker) ok++;
    }
  return ok / total;
}

test('two voices: two speakers, numbered by first speech, with the turns right', () => {
  for (const seed of [1, 2, 3]) {
    // Speaker 1 of the script talks first here, so it must come out as speaker 0.
    const { samples, turns } = synthConversation([WOMAN, MAN], 40, { seed, turnSec: 3, order: [1, 0] });
    const a = analyzeSamples(samples, 16000);
    assert.equal(a.speakers.length, 2, `seed ${seed}`);
    const remapped = turns.map((t) => ({ ...t, speaker: t.speaker === 1 ? 0 : 1 }));
    assert.ok(accuracy(a, remapped) > 0.95, `seed ${seed}: accuracy ${accuracy(a, remapped)}`);
    // The man (speaker 0 here) has the lower pitch; turns alternate, so about half the turns each.
    assert.ok(a.speakers[0]!.metrics.pitchMedianSt! < a.speakers[1]!.metrics.pitchMedianSt! - 8);
    const main = a.turns.filter((t) => !t.backchannel);
    assert.ok(Math.abs(main.length - turns.length) <= 2, `${main.length} turns vs ${turns.length}`);
  }
});

// A perfectly steady synthetic voice with six discrete vowels used to be split into 2-3 clusters by
// vowel content (on every one of these seeds); the voiceprint sure merge joins the parts, whose
// shape and pitch are the same voice (docs/analysis-speech.md).
test('one voice stays one speaker', () => {
  for (const voice of [MAN, WOMAN])
    for (const seed of [3, 4, 6]) {
      const { samples } = synthConversation([voice], 40, { seed, turnSec: 3 });
      assert.equal(analyzeSamples(samples, 16000).speakers.length, 1, `f0 ${voice.f0}, seed ${seed}`);
    }
});

// Known limitation, kept visible: on seed 1 the embedding (an LDA trained on real voices) puts the
// synthetic voice's last 12 s at a cosine distance of 0.96 from the rest (the threshold is 0.8),
// and the voice comes back as two speakers (80/20 % of the speech). Real voices are what the
// threshold was chosen on (docs/analysis-speech.md); a synthetic buzz is outside what the LDA saw.
test('one synthetic voice on seed 1 stays one speaker', { todo: 'the real-voice LDA splits this synthetic voice (see above)' }, () => {
  for (const voice of [MAN, WOMAN]) {
    const { samples } = synthConversation([voice], 40, { seed: 1, turnSec: 3 });
    assert.equal(analyzeSamples(samples, 16000).speakers.length, 1, `f0 ${voice.f0}`);
  }
});

test('a named transcript guides the speakers: one voice stays one, named, speaker', () => {
  const { samples, turns } = synthConversation([MAN], 40, { seed: 4, turnSec: 3 });
  const transcript = { format: 'json' as const, cues: turns.map((t) => ({ speaker: 'Ana', start: t.start, end: t.end, text: '' })) };
  const a = analyzeSamples(samples, 16000, { transcript });
  assert.equal(a.speakers.length, 1);
  assert.equal(a.speakers[0]!.label, 'Ana');
  assert.match(a.method.diarization, /^transcript-guided/);
});

const NAMES = ['Ana', 'Ben'];

/**
 * A woman and a man talking (seed), analysed with a transcript whose cues `cueOf` makes from the
 * true turns; `remapped` are those turns with each voice's speaker as the analysis numbered it
 * (speaker numbers follow first speech; each voice is the speaker bearing its name).
 */
function guidedConversation(seed: number, cueOf: (t: SyntheticTurn, k: number) => { speaker: string; start: number; end: number }) {
  const { samples, turns } = synthConversation([WOMAN, MAN], 40, { seed, turnSec: 3 });
  const cues = turns.map((t, k) => ({ ...cueOf(t, k), text: '' }));
  const a = analyzeSamples(samples, 16000, { transcript: { format: 'json', cues } });
  const byName = new Map(a.speakers.map((s) => [s.label, s.index]));
  const remapped = turns.map((t) => ({ ...t, speaker: byName.get(NAMES[t.speaker]!)! }));
  return { a, turns, remapped };
}

test('a named transcript with boundaries 0.3 s off still gives each voice its turns', () => {
  const shift = [0.3, -0.3];
  const { a, remapped } = guidedConversation(2, (t, k) => ({ speaker: NAMES[t.speaker]!, start: Math.max(0, t.start + shift[k % 2]!), end: t.end + shift[(k + 1) % 2]! }));
  assert.equal(a.speakers.length, 2);
  assert.deepEqual(a.speakers.map((s) => s.label).sort(), ['Ana', 'Ben']);
  assert.ok(accuracy(a, remapped) > 0.95, `accuracy ${accuracy(a, remapped)}`);
});

test('a transcript 1.5 s late as a whole is moved onto the speech, and its cues then give the boundaries', () => {
  const { a, turns, remapped } = guidedConversation(2, (t) => ({ speaker: NAMES[t.speaker]!, start: t.start + 1.5, end: t.end + 1.5 }));
  assert.match(a.method.diarization, /^transcript-guided.*cues' own boundaries.*moved by -1\.50 s/);
  assert.equal(a.transcript?.cues[0]?.start, turns[0]!.start);
  assert.ok(accuracy(a, remapped) > 0.97, `accuracy ${accuracy(a, remapped)}`);
  // No two of its cues overlap: it cannot show overlapped speech, so none is reported (not zero).
  assert.match(a.method.diarization, /no two cues overlap/);
  assert.equal(a.method.overlapMeasured, false);
  for (const s of a.speakers) assert.deepEqual([s.metrics.interruptionsMade, s.metrics.overlapSec], [null, null]);
});

test('overlapping cues with edges on the speech are counted (the interruption and its overlapped time), loose ones are not', () => {
  const { samples, turns } = synthConversation([WOMAN, MAN], 40, { seed: 2, turnSec: 3 });
  // The man's second turn starts 0.8 s before the woman's turn ends: he interrupts her.
  const k = turns.findIndex((t, i) => i > 2 && t.speaker === 1);
  const before = turns[k - 1]!;
  const early = before.end - 0.8;
  renderSpeech(samples, 16000, MAN, early, turns[k]!.start, prng(9));
  const cues = turns.map((t, i) => ({ speaker: NAMES[t.speaker]!, start: i === k ? early : t.start, end: t.end, text: '' }));
  const a = analyzeSamples(samples, 16000, { transcript: { format: 'json', cues } });
  assert.match(a.method.diarization, /overlapping cues are overlapped speech \(cue edges lie 0\.0\d s/);
  assert.equal(a.method.overlapMeasured, true);
  const byName = new Map(a.speakers.map((s) => [s.label, s.metrics]));
  assert.equal(byName.get('Ben')?.interruptionsMade, 1);
  assert.equal(byName.get('Ana')?.interruptionsReceived, 1);
  const overlap = byName.get('Ben')?.overlapSec ?? 0;
  assert.ok(Math.abs(overlap - 0.8) < 0.15, `overlap ${overlap} s`);

  // The same cues with every edge 0.3 s off (the overlap kept): too loose to count, so not zero either.
  const loose = cues.map((c, i) => (i === k ? c : { ...c, start: Math.max(0, c.start + (i % 2 ? 0.3 : -0.3)), end: c.end + (i % 2 ? -0.3 : 0.3) }));
  const b = analyzeSamples(samples, 16000, { transcript: { format: 'json', cues: loose } });
  assert.match(b.method.diarization, /cue edges lie \d\.\d\d s from where speech starts and stops.*too loose \(over 0\.19 s\)/);
  assert.equal(b.method.overlapMeasured, false);
  for (const x of b.speakers) assert.deepEqual([x.metrics.interruptionsMade, x.metrics.backchannels, x.metrics.overlapSec], [null, null, null]);
});

test('a long cue under the wrong name is corrected by the voices; the cues still give the boundaries', () => {
  // Seed 3's fourth or later turn of the woman longer than 2 s is written down as the man's.
  const wrongTurn = (t: SyntheticTurn, k: number): boolean => k > 2 && t.speaker === 0 && t.end - t.start > 2;
  let wrong = -1;
  const { a, remapped } = guidedConversation(3, (t, k) => {
    if (wrong < 0 && wrongTurn(t, k)) wrong = k;
    return { speaker: k === wrong ? 'Ben' : NAMES[t.speaker]!, start: t.start, end: t.end };
  });
  assert.ok(wrong > 0);
  assert.match(a.method.diarization, /cues' own boundaries/);
  assert.ok(accuracy(a, [remapped[wrong]!]) > 0.9, `misnamed cue: ${accuracy(a, [remapped[wrong]!])}`);
  assert.ok(accuracy(a, remapped) > 0.97, `accuracy ${accuracy(a, remapped)}`);
});

test('a transcript covering too little of the speech only labels: clustering decides', () => {
  const { samples, turns } = synthConversation([WOMAN, MAN], 40, { seed: 3, turnSec: 3 });
  const first = turns[0]!;
  const a = analyzeSamples(samples, 16000, { transcript: { format: 'json', cues: [{ speaker: 'Ana', start: first.start, end: first.end, text: '' }] } });
  assert.doesNotMatch(a.method.diarization, /transcript-guided/);
  assert.equal(a.speakers.length, 2);
});

test('silence gives zero speakers, or no_speech_detected when speech is required', () => {
  const x = new Float32Array(16000 * 10);
  addNoise(x, -60, prng(1));
  const a = analyzeSamples(x, 16000);
  assert.equal(a.speakers.length, 0);
  assert.deepEqual(a.segments, []);
  assert.throws(() => analyzeSamples(x, 16000, { requireSpeech: true }), (e: unknown) => e instanceof EngineError && e.code === 'no_speech_detected');
});

test('speaking rate from syllable nuclei is close to the syllables rendered', () => {
  const { samples, syllables } = synthConversation([MAN, WOMAN], 40, { seed: 5, turnSec: 3 });
  const a = analyzeSamples(samples, 16000);
  // Compare counted nuclei with rendered syllables per speaker (speaker order = first speech = 0, 1).
  a.speakers.forEach((s, i) => {
    const counted = (s.metrics.speakingRateSylPerSec ?? 0) * s.metrics.speechSec;
    const rel = Math.abs(counted - syllables[i]!) / syllables[i]!;
    assert.ok(rel < 0.25, `speaker ${i}: ${counted.toFixed(0)} nuclei vs ${syllables[i]} syllables`);
  });
});

test('the same voice in two recordings is more similar than two different voices', () => {
  const one = analyzeSamples(synthConversation([MAN, WOMAN], 40, { seed: 6, turnSec: 3 }).samples, 16000);
  const two = analyzeSamples(synthConversation([WOMAN, MAN], 40, { seed: 8, turnSec: 3 }).samples, 16000);
  const cos = (a: number[], b: number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0) / Math.hypot(...a) / Math.hypot(...b);
  // The main (most speech) low-pitched and high-pitched speaker of each recording.
  const pick = (a: MediaAnalysis, low: boolean): number[] => {
    const cands = a.speakers.filter((s) => (s.metrics.pitchMedianSt ?? 0) < 30 === low).sort((x, y) => y.speechSec - x.speechSec);
    assert.ok(cands[0], 'both voices found');
    return cands[0].voiceprint;
  };
  const same = Math.min(cos(pick(one, true), pick(two, true)), cos(pick(one, false), pick(two, false)));
  const different = Math.max(cos(pick(one, true), pick(two, false)), cos(pick(one, false), pick(two, true)));
  assert.ok(same > different, `same ${same} vs different ${different}`);
});

// The service's worker analyses many recordings in one process: nothing an analysis leaves behind
// (module scratch buffers, caches) may change the next one's result.
test('the same recording gives the same speakers and segments after another recording in the same process', () => {
  const first = synthConversation([WOMAN, MAN, { f0: 160, formantScale: 1.1 }], 40, { seed: 5, turnSec: 2 });
  const other = synthConversation([MAN, WOMAN], 30, { seed: 9, turnSec: 1.5 });
  const a = analyzeSamples(first.samples, 16000);
  analyzeSamples(other.samples, 16000);
  const b = analyzeSamples(first.samples, 16000);
  assert.ok(a.speakers.length >= 2 && a.segments.length > 5, 'a real diarization to compare');
  assert.deepEqual(b.segments, a.segments);
  assert.deepEqual(b.speakers.map((s) => s.voiceprint), a.speakers.map((s) => s.voiceprint));
});

const CHILD = { f0: 300, formantScale: 1.35 };

// Known limitation, kept visible: without a hint, the synthetic woman (220 Hz) and child (300 Hz)
// are 0.59 apart in the real-voice embedding, under the 0.8 threshold, and come back as one.
test('three synthetic voices without a hint are three speakers', { todo: 'the real-voice LDA hears the synthetic woman and child as one (see above)' }, () => {
  const { samples } = synthConversation([WOMAN, MAN, CHILD], 60, { seed: 4, turnSec: 3 });
  assert.equal(analyzeSamples(samples, 16000).speakers.length, 3);
});

test('the speaker-count hint bounds the speakers: exactly 2 of three voices, at most 2, at least 3', () => {
  const { samples } = synthConversation([WOMAN, MAN, CHILD], 60, { seed: 4, turnSec: 3 });
  assert.equal(analyzeSamples(samples, 16000, { speakers: { exact: 2 } }).speakers.length, 2);
  assert.equal(analyzeSamples(samples, 16000, { speakers: { max: 2 } }).speakers.length, 2);
  assert.equal(analyzeSamples(samples, 16000, { speakers: { min: 3 } }).speakers.length, 3);
  // Two voices asked to stay at least three: merging stops there, and the speakers stay numbered by first speech.
  const two = synthConversation([WOMAN, MAN], 40, { seed: 2, turnSec: 3 });
  const three = analyzeSamples(two.samples, 16000, { speakers: { min: 3 } });
  assert.ok(three.speakers.length >= 2);
  const firsts = three.speakers.map((s) => s.firstSpeechSec);
  assert.deepEqual(firsts, [...firsts].sort((a, b) => a - b));
});

test('an exact hint above what the voices say is met when the speech holds that many stretches (decisions §15)', () => {
  // 60 s of three voices, asked for two to three times as many: the speech holds far more than
  // 10 stretches of 2 s, so that many speakers come back, each with speech of its own. (Asked for
  // 7 or more, one used to come back short with hint_not_met: the track left a cluster only
  // fragments, which the gap restoring absorbed; an asked-for speaker now keeps its clean speech.)
  const { samples } = synthConversation([WOMAN, MAN, CHILD], 60, { seed: 4, turnSec: 3 });
  for (const exact of [5, 6, 7, 10]) {
    const a = analyzeSamples(samples, 16000, { speakers: { exact } });
    assert.equal(a.speakers.length, exact, `asked ${exact}`);
    assert.ok(a.speakers.every((s) => s.speechSec >= 1), a.speakers.map((s) => s.speechSec).join(' '));
    assert.equal(a.warnings?.some((w) => w.code === 'hint_not_met') ?? false, false);
  }
});

test('a recording shorter than the segmentation window is analysed (the window is padded), silence or speech', () => {
  // The built-in network takes 8 s windows of exactly 800 frames; 5 s used to fail inside onnxruntime.
  assert.equal(analyzeSamples(new Float32Array(16000 * 5), 16000).speakers.length, 0);
  const { samples } = synthConversation([WOMAN], 5, { seed: 2, turnSec: 3 });
  const a = analyzeSamples(samples, 16000);
  assert.equal(a.speakers.length, 1);
  assert.ok(a.speakers[0]!.speechSec > 2, `${a.speakers[0]!.speechSec} s of speech`);
});

test('asked for far more speakers than the voices hold, no speaker comes back without speech', () => {
  const { samples } = synthConversation([WOMAN, MAN], 24, { seed: 2, turnSec: 3 });
  const a = analyzeSamples(samples, 16000, { speakers: { exact: 20 } });
  assert.ok(a.speakers.every((s) => s.speechSec > 0), a.speakers.map((s) => s.speechSec).join(' '));
  if (a.speakers.length !== 20) assert.deepEqual(a.warnings?.map((w) => w.code), ['hint_not_met']);
});
