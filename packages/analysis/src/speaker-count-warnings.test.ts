// Decisions §15: a speaker-count hint the analysis could not meet is a warning of the analysis
// (hint_not_met: asked, found, reason), never silence; a hint that was met, or none, says nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { speakerCountWarnings, uncertainCount } from './speaker-count-warnings.ts';
import { analyzeSamples } from './analyze.ts';
import { synthConversation } from './speech/synthetic.ts';

test('a hint met, or no hint, gives no warning', () => {
  assert.deepEqual(speakerCountWarnings(undefined, 3), []);
  assert.deepEqual(speakerCountWarnings({ exact: 2 }, 2), []);
  assert.deepEqual(speakerCountWarnings({ min: 2, max: 4 }, 4), []);
  assert.deepEqual(speakerCountWarnings({ max: 3 }, 1), []);
});

test('an exact count not met: hint_not_met with what was asked, what was found and why', () => {
  const [w, ...rest] = speakerCountWarnings({ exact: 20 }, 9);
  assert.equal(rest.length, 0);
  assert.deepEqual({ code: w?.code, asked: w?.code === 'hint_not_met' ? w.asked : null, found: w?.found }, { code: 'hint_not_met', asked: { numSpeakers: 20 }, found: 9 });
  assert.match(w?.reason ?? '', /exactly 20 speakers were asked for, but the speech holds only 9 voices/);
});

test('bounds not met, on either side, in the API\'s words', () => {
  assert.deepEqual(speakerCountWarnings({ min: 3 }, 1).map((w) => [w.code === 'hint_not_met' ? w.asked : null, w.found]), [[{ minSpeakers: 3 }, 1]]);
  const [over] = speakerCountWarnings({ min: 1, max: 2 }, 4);
  assert.deepEqual(over?.code === 'hint_not_met' ? over.asked : null, { minSpeakers: 1, maxSpeakers: 2 });
  assert.match(over?.reason ?? '', /at most 2 speakers were asked for, but the speech holds 4 voices/);
});

test('analyzeSamples carries the warning when the count it ends with is not the one asked', () => {
  // 8 s of one voice cannot hold 20 speakers.
  const { samples, rate } = synthConversation([{ f0: 120, formantScale: 1 }], 8, { seed: 3 });
  const a = analyzeSamples(samples, rate, { speakers: { exact: 20 } });
  assert.ok(a.speakers.length < 20);
  assert.deepEqual(a.warnings, speakerCountWarnings({ exact: 20 }, a.speakers.length));
  assert.equal(a.warnings?.[0]?.code, 'hint_not_met');
  const met = analyzeSamples(samples, rate, { speakers: { max: 20 } });
  assert.equal(met.warnings, undefined, 'no warnings field when the hint is met');
});

test('a count found from the voices alone carries speaker_count_uncertain with the measured share; a hint or a transcript\'s names do not', () => {
  assert.deepEqual(uncertainCount(3, undefined), []);
  const [w] = uncertainCount(3, { nearestPair: 8, widestSplit: 2 });
  assert.equal(w?.code, 'speaker_count_uncertain');
  assert.equal(w?.found, 3);
  assert.match(w?.reason ?? '', /exact for 36 % of recordings: give a speaker-count hint/);
  assert.deepEqual(speakerCountWarnings({ exact: 3 }, 3, { nearestPair: 8, widestSplit: 2 }), []);
  assert.equal(speakerCountWarnings(undefined, 3, { nearestPair: 8, widestSplit: 2 })[0]?.code, 'speaker_count_uncertain');
});
