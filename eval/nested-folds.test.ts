import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestedChoice } from './nested-folds.ts';
import { emptyScore } from './sweep.ts';

const run = (derNum: number) => ({ settings: {}, files: [{ name: 'a', score: { ...emptyScore(), derNum, derDen: 100, files: 1 } }] });

test('each fold is scored with the setting best on the other folds, never on itself', () => {
  // Setting 1 is best on fold-1 alone, setting 0 on folds 2 and 3 together (40 against 60); for
  // folds 2 and 3 the others pooled favour setting 1 (70 against 40).
  const byFold = new Map([
    ['fold-1', [run(50), run(10)]],
    ['fold-2', [run(20), run(30)]],
    ['fold-3', [run(20), run(30)]],
  ]);
  const nested = nestedChoice(byFold);
  assert.deepEqual(nested.map((n) => n.chosen), [0, 1, 1]);
  // fold-1 is scored with setting 0 (50 %), which its own figures would not have chosen.
  assert.equal(nested[0]!.held.derNum, 50);
});
