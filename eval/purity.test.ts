import { test } from 'node:test';
import assert from 'node:assert/strict';
import { speakerPurity } from './purity.ts';

test('purity: a speaker heard from one voice is pure, a mixed one is its majority share', () => {
  const ref = [
    { speaker: 'A', start: 0, end: 10 },
    { speaker: 'B', start: 10, end: 20 },
  ];
  const hyp = [
    { speaker: '0', start: 0, end: 10 },
    { speaker: '1', start: 10, end: 16 },
    { speaker: '1', start: 16, end: 20 },
    { speaker: '1', start: 2, end: 4 },
  ];
  const [a, b] = speakerPurity(ref, hyp, ['0', '1', '2']);
  assert.deepEqual(a, { purity: 1, voice: 'A' });
  assert.ok(Math.abs(b!.purity - 10 / 12) < 1e-9);
  assert.equal(b!.voice, 'B');
  assert.deepEqual(speakerPurity(ref, hyp, ['2'])[0], { purity: 0, voice: null });
});

test('purity is of voices mixed: speech where the reference hears nobody is left out', () => {
  const [p] = speakerPurity([{ speaker: 'A', start: 0, end: 5 }], [{ speaker: '0', start: 0, end: 10 }], ['0']);
  assert.equal(p!.purity, 1);
  const [q] = speakerPurity([{ speaker: 'A', start: 0, end: 5 }, { speaker: 'B', start: 8, end: 10 }], [{ speaker: '0', start: 0, end: 10 }], ['0']);
  assert.ok(Math.abs(q!.purity - 5 / 7) < 1e-9);
});
