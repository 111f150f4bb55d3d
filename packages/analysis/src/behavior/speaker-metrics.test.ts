import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateMetrics, computeSpeakerMetrics } from './speaker-metrics.ts';
import { acousticFor, turn } from './fixtures.testkit.ts';
import type { SpeakerMetrics, SpeechSegment, Transcript } from '../types.ts';

const close = (a: number | null | undefined, b: number, msg?: string) => {
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-9, msg ?? `${a} vs ${b}`);
};

// Hand-made: Ann talks (with a pause), Ben answers while Ann backchannels, Ann again, Ben
// interrupts her a second before she ends.
const segments: SpeechSegment[] = [
  { speaker: 0, start: 0, end: 4 },
  { speaker: 0, start: 4.5, end: 8 },
  { speaker: 1, start: 8.3, end: 12 },
  { speaker: 0, start: 10, end: 10.5 },
  { speaker: 1, start: 12.6, end: 14.5 },
  { speaker: 0, start: 15, end: 20 },
  { speaker: 1, start: 19, end: 25 },
];
const turns = [
  turn(0, 0, 8),
  turn(1, 8.3, 14.5),
  turn(0, 10, 10.5, { backchannel: true }),
  turn(0, 15, 20),
  turn(1, 19, 25, { interrupts: true }),
];
const transcript: Transcript = {
  format: 'webvtt',
  cues: [
    { speaker: 'Ann', start: 0, end: 8, text: 'Hello there. How are you?' },
    { speaker: 'Ben', start: 8.3, end: 14.5, text: 'I am fine, thanks.' },
    { speaker: null, start: 19, end: 25, text: 'We should meet again?' },
  ],
};
const input = {
  durationSec: 30,
  segments,
  turns,
  acoustic: [acousticFor(0, { syllables: 52, phonationSec: 12 }), acousticFor(1, { pitchMedianSt: null })],
  transcript,
  labels: ['Ann', 'Ben'],
};

test('per-speaker timing measures of a hand-made conversation', () => {
  const [ann, ben] = computeSpeakerMetrics(input);
  assert.ok(ann && ben);
  close(ann.speechSec, 13);
  close(ben.speechSec, 11.6);
  close(ann.talkShare, 13 / 24.6);
  close(ann.talkShare + ben.talkShare, 1);
  assert.equal(ann.turns, 2);
  close(ann.medianTurnSec, 6.5);
  close(ann.longestTurnSec, 8);
  close(ben.medianTurnSec, 6.1);
  // Only the 0.5 s silence inside Ann's first turn is a pause; gaps between turns are not.
  close(ann.medianPauseSec, 0.5);
  close(ann.pausesPerMin, 1 / (13 / 60));
  close(ben.medianPauseSec, 0.6);
  close(ann.medianGapBeforeTurnSec, 0.5);
  close(ben.medianGapBeforeTurnSec, (0.3 - 1) / 2);
  assert.equal(ben.interruptionsMade, 1);
  assert.equal(ann.interruptionsReceived, 1);
  assert.equal(ann.interruptionsMade, 0);
  assert.equal(ann.backchannels, 1);
  close(ann.overlapSec, 1.5);
  close(ben.overlapSec, 1.5);
});

test('rates and voice come from the acoustic stats', () => {
  const [ann, ben] = computeSpeakerMetrics(input);
  // Speaking rate over turn time (13.5 s with the pause and the backchannel), articulation over phonation.
  close(ann?.speakingRateSylPerSec, 52 / 13.5);
  close(ann?.articulationRateSylPerSec, 52 / 12);
  assert.equal(ben?.speakingRateSylPerSec, null, 'no syllables counted');
  close(ann?.pitchMedianSt, 30);
  assert.equal(ben?.pitchMedianSt, null);
  close(ben?.loudnessMeanDb, -26);
});

test('language measures from cues attributed by label, and unnamed cues by overlap', () => {
  const [ann, ben] = computeSpeakerMetrics(input);
  assert.equal(ann?.language?.words, 5);
  assert.equal(ben?.language?.words, 8);
  close(ben?.language?.firstPersonPluralRate, 100 / 8);
  const none = computeSpeakerMetrics({ ...input, transcript: null, labels: [null, null] });
  assert.equal(none[0]?.language, null);
  assert.equal(none.length, 2);
});

test('a speaker index with no speech still gets a (zero) entry', () => {
  const out = computeSpeakerMetrics({ ...input, transcript: null, labels: [null, null, null] });
  assert.equal(out.length, 3);
  assert.equal(out[2]?.speechSec, 0);
  assert.equal(out[2]?.talkShare, 0);
  assert.equal(out[2]?.medianTurnSec, null);
});

test('aggregateMetrics sums counts and weights the rest by speech time', () => {
  const [ann] = computeSpeakerMetrics(input);
  assert.ok(ann);
  const a: SpeakerMetrics = { ...ann, speechSec: 10, pitchMedianSt: 20, turns: 3, longestTurnSec: 9, medianGapBeforeTurnSec: null };
  const b: SpeakerMetrics = { ...ann, speechSec: 30, pitchMedianSt: 40, turns: 5, longestTurnSec: 4, medianGapBeforeTurnSec: 0.4 };
  const agg = aggregateMetrics([{ metrics: a }, { metrics: b }]);
  close(agg.speechSec, 40);
  assert.equal(agg.turns, 8);
  close(agg.pitchMedianSt, 35);
  close(agg.longestTurnSec, 9);
  close(agg.medianGapBeforeTurnSec, 0.4, 'null values are skipped, not averaged as zero');
  assert.equal(agg.language?.words, 10);
  const noLang = aggregateMetrics([{ metrics: { ...a, language: null } }]);
  assert.equal(noLang.language, null);
});

test('without a track that shows overlap, interruptions, backchannels and overlap are not measured (null), not zero', () => {
  const [ann, ben] = computeSpeakerMetrics({ ...input, overlapMeasured: false });
  assert.ok(ann && ben);
  for (const m of [ann, ben]) assert.deepEqual([m.interruptionsMade, m.interruptionsReceived, m.backchannels, m.overlapSec], [null, null, null, null]);
  close(ann.speechSec, 13);
  // Over an entity's media, the media that measured it are summed; none measured stays null.
  const [measured] = computeSpeakerMetrics(input);
  assert.ok(measured);
  assert.equal(aggregateMetrics([{ metrics: ann }, { metrics: measured }]).interruptionsReceived, measured.interruptionsReceived);
  assert.equal(aggregateMetrics([{ metrics: ann }, { metrics: ann }]).overlapSec, null);
});
