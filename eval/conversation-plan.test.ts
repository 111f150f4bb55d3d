import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../packages/analysis/src/behavior/stats.ts';
import { drawConversation, sameGroupVoices, voiceGroup, GAP_MEDIAN_SEC, type ConversationVoice } from './conversation-plan.ts';

const SR = 16000;

/** A voice of silent clips 1.5 to 5 s long: only the clips' lengths matter to the drawing. */
function voice(id: string, clips: number): ConversationVoice {
  return { id, clips: Array.from({ length: clips }, (_, i) => ({ samples: new Float32Array(Math.round((1.5 + (i % 8) * 0.5) * SR)), spans: [] })) };
}

const voices = [voice('a', 12), voice('b', 5), voice('c', 20)];
const placed = drawConversation(voices, 3600, [0, 0, -10], seededRandom(7));
const turns = [...new Set(placed.map((p) => p.turn))].map((t) => placed.filter((p) => p.turn === t));

test('the same seed draws the same conversation', () => {
  const again = drawConversation(voices, 3600, [0, 0, -10], seededRandom(7));
  assert.deepEqual(
    again.map((p) => [p.speaker, p.start]),
    placed.map((p) => [p.speaker, p.start]),
  );
});

test('turns are 1 to 3 utterances of one speaker, and the next turn is someone else', () => {
  for (const t of turns) {
    assert.ok(t.length >= 1 && t.length <= 3);
    assert.equal(new Set(t.map((p) => p.speaker)).size, 1);
  }
  for (let i = 1; i < turns.length; i++) assert.notEqual(turns[i]![0]!.speaker, turns[i - 1]![0]!.speaker);
  assert.ok(placed.every((p) => p.start >= 0 && p.start + p.clip.samples.length / SR <= 3600));
});

test('5-10 % of turns overlap the previous one; the other gaps have a median near 0.3 s', () => {
  const overlapping = turns.filter((t) => t[0]!.overlapped).length / turns.length;
  assert.ok(overlapping >= 0.04 && overlapping <= 0.11, `overlapping share ${overlapping}`);
  const gaps: number[] = [];
  let lastEnd = 0;
  for (const t of turns) {
    if (!t[0]!.overlapped && lastEnd > 0) gaps.push(t[0]!.start - lastEnd);
    else if (t[0]!.overlapped) assert.ok(t[0]!.start < lastEnd);
    lastEnd = Math.max(lastEnd, ...t.map((p) => p.start + p.clip.samples.length / SR));
  }
  gaps.sort((x, y) => x - y);
  const median = gaps[gaps.length >> 1]!;
  assert.ok(Math.abs(median - GAP_MEDIAN_SEC) < 0.06, `median gap ${median}`);
});

test('talk is shared unequally, and the quiet speaker is 10 dB down', () => {
  const talk = voices.map((v) => placed.filter((p) => p.speaker === v.id).reduce((a, p) => a + p.clip.samples.length, 0));
  assert.ok(Math.max(...talk) > 1.1 * Math.min(...talk));
  const quiet = placed.filter((p) => p.speaker === 'c').map((p) => p.gainDb);
  assert.ok(quiet.every((g) => g >= -11 && g <= -9));
});

test('same-group voices share sex and age group; unlabelled corpora get null', () => {
  assert.equal(voiceGroup({ sex: 'f', age: 9 }), 'f-child');
  assert.equal(voiceGroup({ sex: 'm', age: null }), 'm-adult');
  assert.equal(voiceGroup({ sex: null, age: 30 }), null);
  const pool = [
    { id: '1', sex: 'f', age: 10 },
    { id: '2', sex: 'f', age: 30 },
    { id: '3', sex: 'f', age: 12 },
    { id: '4', sex: null, age: null },
  ];
  const g = sameGroupVoices(pool, 3, seededRandom(1));
  assert.equal(g?.group, 'f-child');
  assert.deepEqual(new Set(g!.voices.slice(0, 2).map((v) => v.id)), new Set(['1', '3']));
  assert.equal(g!.voices.length, 3);
  assert.equal(sameGroupVoices([{ id: 'x', sex: null, age: null }], 2, seededRandom(1)), null);
});
