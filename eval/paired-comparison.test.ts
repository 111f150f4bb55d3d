import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairFiles, pairedComparison } from './paired-comparison.ts';

test('pairFiles counts files helped and hurt beyond the margin, and the exact counts', () => {
  const before = [
    { name: 'a', der25: 0.3, ref: 2, hyp: 2 },
    { name: 'b', der25: 0.2, ref: 3, hyp: 2 },
    { name: 'c', der25: 0.1, ref: 2, hyp: 2 },
    { name: 'gone', der25: 0.9, ref: 2, hyp: 5 },
  ];
  const after = [
    { name: 'a', der25: 0.2, ref: 2, hyp: 2 },
    { name: 'b', der25: 0.203, ref: 3, hyp: 3 },
    { name: 'c', der25: 0.4, ref: 2, hyp: 4 },
    { name: 'new', der25: 0, ref: 1, hyp: 1 },
  ];
  const p = pairFiles(before, after);
  assert.deepEqual({ files: p.files, better: p.better, worse: p.worse, exactBefore: p.exactBefore, exactAfter: p.exactAfter }, { files: 3, better: 1, worse: 1, exactBefore: 2, exactAfter: 2 });
  assert.ok(Math.abs(p.meanDerBefore - 0.2) < 1e-12 && Math.abs(p.meanDerAfter - 0.803 / 3) < 1e-12);
  assert.match(pairedComparison(before, after), /better on 1, worse on 1/);
  assert.equal(pairedComparison(before, []), 'baseline: no file in common');
});
