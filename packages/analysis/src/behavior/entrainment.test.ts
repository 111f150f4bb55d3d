import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeEntrainment } from './entrainment.ts';
import { conversation, turn } from './fixtures.testkit.ts';

function score(seed: number, entrained: boolean) {
  const c = conversation(seed, 60, entrained);
  return computeEntrainment([{ id: `m${seed}`, durationSec: c.durationSec, turns: c.turns, a: 0, b: 1 }]);
}

test('entrained synthetic pairs beat the shuffled baseline; independent ones do not', () => {
  const entrained = [1, 2, 3, 4, 5].map((s) => score(s, true));
  const independent = [1, 2, 3, 4, 5].map((s) => score(s, false));
  for (let i = 0; i < 5; i += 1) {
    const e = entrained[i];
    const n = independent[i];
    assert.ok(e?.score !== null && n?.score !== null && e && n);
    assert.ok((e.score ?? 0) > (n.score ?? 100), `seed ${i + 1}: ${e.score} vs ${n.score}`);
    const prox = e.cells.find((c) => c.feature === 'pitch' && c.measure === 'proximity');
    assert.ok(prox && (prox.score ?? 0) > 95, `proximity ${prox?.score}`);
    assert.ok((prox.observed ?? 0) < (prox.baseline ?? 0), 'partners closer than the shuffled pairing');
    const sync = e.cells.find((c) => c.feature === 'loudness' && c.measure === 'synchrony');
    assert.ok(sync && (sync.observed ?? 0) > 0.5, `synchrony r ${sync?.observed}`);
  }
  const mean = (xs: { score: number | null }[]) => xs.reduce((s, x) => s + (x.score ?? 0), 0) / xs.length;
  // Unrelated speakers hover around 50, the value of a coin toss against the baseline.
  assert.ok(Math.abs(mean(independent) - 50) < 15, `independent mean ${mean(independent)}`);
  assert.ok(mean(entrained) > 75, `entrained mean ${mean(entrained)}`);
  for (const r of [...entrained, ...independent]) for (const c of r.cells) if (c.score !== null) assert.ok(c.score >= 0 && c.score <= 100);
});

test('convergence: partners whose distance shrinks over time score high', () => {
  const turns = [];
  let t = 0;
  for (let k = 0; k < 40; k += 1) {
    const gap = 10 * (1 - k / 40) * (k % 3 === 0 ? 1.2 : 0.8);
    const pitch = k % 2 === 0 ? 30 : 30 + gap;
    turns.push(turn(k % 2, t, t + 2, { pitchSt: pitch, initialPitchSt: pitch, finalPitchSt: pitch }));
    t += 2.3;
  }
  const r = computeEntrainment([{ id: 'x', durationSec: t, turns, a: 0, b: 1 }]);
  const conv = r.cells.find((c) => c.feature === 'pitch' && c.measure === 'convergence');
  assert.ok(conv && (conv.observed ?? 0) < -0.8 && (conv.score ?? 0) > 95, JSON.stringify(conv));
});

test('too few exchanges: nothing is measured, and the result says so', () => {
  const r = computeEntrainment([{ id: 'x', durationSec: 10, turns: [turn(0, 0, 2), turn(1, 2.2, 4), turn(0, 4.3, 6)], a: 0, b: 1 }]);
  assert.equal(r.score, null);
  assert.ok(r.cells.every((c) => c.score === null));
  assert.equal(r.exchanges, 2);
});

test('deterministic: the same input gives the same scores', () => {
  assert.deepEqual(score(9, true), score(9, true));
});
