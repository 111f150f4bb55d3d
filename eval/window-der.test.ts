import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignments, scoreWindow } from './window-der.ts';

/** Frames from a string per frame: '.' nobody, 'a'/'b'/'c' one voice or local speaker, 'ab' both. */
function bits(frames: string[]): number[] {
  return frames.map((f) => [...f].reduce((m, ch) => (ch === '.' ? m : m | (1 << (ch.charCodeAt(0) - 97))), 0));
}

test('assignments: each local speaker to a distinct voice or to none', () => {
  const all = assignments(3, 2);
  // None for all (1), one voice to one of them (3 × 2), both voices to two of them (3 × 2).
  assert.equal(all.length, 13);
  for (const a of all) assert.equal(new Set(a.filter((v) => v >= 0)).size, a.filter((v) => v >= 0).length);
});

test('scoreWindow: labels are matched by the best assignment, errors counted per frame', () => {
  const ref = Uint16Array.from(bits(['a', 'a', 'b', 'b', 'ab', '.']));
  // The same voices under swapped labels: no error.
  const swapped = Uint8Array.from(bits(['b', 'b', 'a', 'a', 'ab', '.']));
  const perfect = scoreWindow(swapped, ref, 3, 2);
  assert.deepEqual([perfect.ref, perfect.miss, perfect.fa, perfect.conf], [6, 0, 0, 0]);
  assert.deepEqual([perfect.ovTp, perfect.ovHyp, perfect.ovRef], [1, 1, 1]);
  // Both voices as one local speaker: the second voice's frames are confusion, the overlap a miss.
  const merged = scoreWindow(Uint8Array.from(bits(['a', 'a', 'a', 'a', 'a', '.'])), ref, 3, 2);
  assert.deepEqual([merged.miss, merged.fa, merged.conf], [1, 0, 2]);
  // Speech where nobody speaks is a false alarm.
  const extra = scoreWindow(Uint8Array.from(bits(['a', 'a', 'b', 'b', 'ab', 'a'])), ref, 3, 2);
  assert.deepEqual([extra.miss, extra.fa, extra.conf], [0, 1, 0]);
});
