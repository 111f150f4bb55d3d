import { test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceTurnTaking, scoreTurnTaking } from './turn-taking.ts';
import type { MediaAnalysis, Turn } from '../packages/analysis/src/types.ts';

// A talks, B backchannels inside A, B interrupts A's second utterance, A answers after a gap.
const utterances = [
  { speaker: 'A', start: 0, end: 4, kind: 'turn' },
  { speaker: 'B', start: 2, end: 2.5, kind: 'backchannel' },
  { speaker: 'A', start: 4.3, end: 8, kind: 'turn' },
  { speaker: 'B', start: 7.5, end: 10, kind: 'turn' },
  { speaker: 'A', start: 10.4, end: 12, kind: 'turn' },
];

test('the reference counts follow the manifest definitions', () => {
  const t = referenceTurnTaking(utterances);
  assert.equal(t.turns, 3); // A's two utterances are one run
  assert.deepEqual(t.interruptions.map((x) => x.start), [7.5]);
  assert.equal(t.backchannels.length, 1);
  assert.ok(Math.abs(t.overlapSec - 1) < 1e-9); // 0.5 s backchannel + 0.5 s interruption
});

function turn(speaker: number, start: number, end: number, flags: Partial<Turn> = {}): Turn {
  return { speaker, start, end, pitchSt: null, loudnessDb: -30, rateSylPerSec: null, initialPitchSt: null, finalPitchSt: null, initialLoudnessDb: -30, finalLoudnessDb: -30, interrupts: false, backchannel: false, ...flags };
}

test('events match only with the mapped speaker and in time', () => {
  const analysis = {
    turns: [turn(0, 0, 8), turn(1, 7.9, 10, { interrupts: true }), turn(0, 10.4, 12, { interrupts: true })],
    speakers: [{ metrics: { overlapSec: 0.1, interruptionsMade: 1 } }, { metrics: { overlapSec: 0.1, interruptionsMade: 0 } }],
  } as unknown as MediaAnalysis;
  const s = scoreTurnTaking(analysis, referenceTurnTaking(utterances), new Map([[0, 'A'], [1, 'B']]));
  assert.deepEqual(s.interruptions, { ref: 1, hyp: 2, matched: 1 });
  assert.deepEqual(s.backchannels, { ref: 1, hyp: 0, matched: 0 });
  assert.deepEqual(s.turns, { ref: 3, hyp: 3 });
  assert.ok(Math.abs(s.overlapSec.hyp! - 0.1) < 1e-9);
  const swapped = scoreTurnTaking(analysis, referenceTurnTaking(utterances), new Map([[0, 'B'], [1, 'A']]));
  assert.equal(swapped.interruptions.matched, 0);
});

test('an analysis that does not measure overlap scores its events as not measured', () => {
  const analysis = { turns: [turn(0, 0, 8)], speakers: [{ metrics: { overlapSec: null, interruptionsMade: null } }] } as unknown as MediaAnalysis;
  const s = scoreTurnTaking(analysis, referenceTurnTaking(utterances), new Map([[0, 'A']]));
  assert.deepEqual(s.interruptions, { ref: 1, hyp: null, matched: null });
  assert.equal(s.overlapSec.hyp, null);
});
