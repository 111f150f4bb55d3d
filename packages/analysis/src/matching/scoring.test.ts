import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCORING, scorePair } from './scoring.ts';
import { conversation, makeMedia, turn } from '../behavior/fixtures.testkit.ts';
import type { PairConversation } from '../behavior/pair-metrics.ts';
import type { MediaAnalysis } from '../types.ts';

function conv(media: MediaAnalysis, id: string, a = 0, b = 1): PairConversation {
  return { id, durationSec: media.durationSec, segments: media.segments, turns: media.turns, overlapMeasured: true, a, b };
}

test('met pair: each component 0–100 with inputs and confidence; overall is the confidence-weighted mean', () => {
  const media = makeMedia(conversation(4, 40, true));
  const [m0, m1] = media.speakers;
  assert.ok(m0 && m1);
  const r = scorePair({ target: m0.metrics, member: m1.metrics, conversations: [conv(media, 'med_a')] });
  assert.equal(r.met, true);
  assert.deepEqual(r.sharedMediaIds, ['med_a']);
  assert.deepEqual(r.components.map((c) => c.key), ['responsiveness', 'interruptions', 'floorBalance', 'entrainment', 'languageStyle']);
  for (const c of r.components) {
    if (c.score !== null) assert.ok(c.score >= 0 && c.score <= 100 && c.confidence > 0 && c.confidence <= 1, c.key);
  }
  const lsm = r.components.find((c) => c.key === 'languageStyle');
  assert.equal(lsm?.score, null, 'no transcript, no language style matching');
  assert.equal(lsm?.confidence, 0);
  const used = r.components.filter((c) => c.score !== null);
  const expected = used.reduce((s, c) => s + c.weight * c.confidence * (c.score ?? 0), 0) / used.reduce((s, c) => s + c.weight * c.confidence, 0);
  assert.ok(Math.abs((r.overall.score ?? 0) - expected) < 1e-9);
  assert.ok(r.overall.confidence < 1, 'a missing component lowers the overall confidence');
});

test('responsiveness: quick answers score higher than slow ones; interruptions lower their score', () => {
  const build = (gap: number, interrupt: boolean) => {
    const turns = [];
    let t = 0;
    for (let k = 0; k < 30; k += 1) {
      const start = k === 0 ? 0 : t + (interrupt && k % 3 === 0 ? -0.6 : gap);
      turns.push(turn(k % 2, start, start + 3, { interrupts: interrupt && k % 3 === 0 && k > 0 }));
      t = start + 3;
    }
    const media = makeMedia({ durationSec: t + 1, turns });
    return scorePair({ target: media.speakers[0]!.metrics, member: media.speakers[1]!.metrics, conversations: [conv(media, 'm')] });
  };
  const fast = build(0.2, false);
  const slow = build(1.8, false);
  const rude = build(0.2, true);
  const get = (r: ReturnType<typeof build>, k: string) => r.components.find((c) => c.key === k);
  assert.ok(Math.abs((get(fast, 'responsiveness')?.score ?? 0) - 100) < 1e-9);
  assert.ok((get(slow, 'responsiveness')?.score ?? 100) < 30);
  assert.equal(get(fast, 'interruptions')?.score, 100);
  assert.ok((get(rude, 'interruptions')?.score ?? 100) < 80);
  assert.equal(get(fast, 'responsiveness')?.inputs.responsesTarget, 14);
  assert.equal(get(fast, 'responsiveness')?.confidence, 1, `${29} transitions >= ${SCORING.fullConfidenceTransitions}`);
});

test('floor balance: an even split scores 100, a monologue near 0', () => {
  const even = makeMedia({ durationSec: 20, turns: [turn(0, 0, 5), turn(1, 5.2, 10), turn(0, 10.2, 15), turn(1, 15.2, 20)] });
  const mono = makeMedia({ durationSec: 62, turns: [turn(0, 0, 60), turn(1, 60.2, 61)] });
  const s = (m: MediaAnalysis) => scorePair({ target: m.speakers[0]!.metrics, member: m.speakers[1]!.metrics, conversations: [conv(m, 'x')] })
    .components.find((c) => c.key === 'floorBalance')?.score ?? -1;
  assert.ok(s(even) > 95, `${s(even)}`);
  assert.ok(s(mono) < 5, `${s(mono)}`);
});

test('never met: similarity is higher for alike profiles; confidence grows with speech', () => {
  const a = makeMedia(conversation(1, 30, false)).speakers[0]!.metrics;
  const alike = { ...a, speechSec: a.speechSec };
  const different = { ...a, medianTurnSec: (a.medianTurnSec ?? 0) + 12, medianGapBeforeTurnSec: 2.5, pitchVariabilitySt: 9, loudnessVariabilityDb: 15 };
  const same = scorePair({ target: a, member: alike, conversations: [] });
  const diff = scorePair({ target: a, member: different, conversations: [] });
  assert.equal(same.met, false);
  assert.deepEqual(same.components.map((c) => c.key), ['similarity', 'complementarity']);
  const sim = (r: typeof same) => r.components[0]?.score ?? -1;
  assert.ok(Math.abs(sim(same) - 100) < 1e-9);
  assert.ok(sim(diff) < sim(same) - 30, `${sim(diff)}`);
  const little = scorePair({ target: { ...a, speechSec: 30 }, member: { ...alike, speechSec: 30 }, conversations: [] });
  assert.ok(little.overall.confidence < same.overall.confidence);
});

test('complementarity: two heavy interrupters clash', () => {
  const a = makeMedia(conversation(2, 30, false)).speakers[0]!.metrics;
  const calm = scorePair({ target: { ...a, interruptionsMade: 0 }, member: { ...a, interruptionsMade: 0 }, conversations: [] });
  const clash = scorePair({ target: { ...a, interruptionsMade: 40 }, member: { ...a, interruptionsMade: 40 }, conversations: [] });
  const c = (r: typeof calm) => r.components.find((x) => x.key === 'complementarity');
  assert.equal(c(clash)?.inputs.interruptionCompatibility, 0);
  assert.equal(c(calm)?.inputs.interruptionCompatibility, 1);
  assert.ok((c(calm)?.score ?? 0) > (c(clash)?.score ?? 100));
});

test('interruption balance is not measured in media whose track cannot show overlap (audio without a transcript)', () => {
  const media = makeMedia(conversation(4, 40, true));
  const [m0, m1] = media.speakers;
  assert.ok(m0 && m1);
  const audioOnly = { ...conv(media, 'med_a'), overlapMeasured: false };
  const r = scorePair({ target: { ...m0.metrics, interruptionsMade: null }, member: { ...m1.metrics, interruptionsMade: null }, conversations: [audioOnly] });
  const interruptions = r.components.find((c) => c.key === 'interruptions');
  assert.equal(interruptions?.score, null);
  assert.equal(interruptions?.confidence, 0);
  assert.equal(interruptions?.inputs.interruptionsByTarget, null);
  const measured = scorePair({ target: m0.metrics, member: m1.metrics, conversations: [conv(media, 'med_a')] });
  assert.notEqual(measured.components.find((c) => c.key === 'interruptions')?.score, null);
  assert.ok((r.overall.confidence ?? 0) < (measured.overall.confidence ?? 0), 'the missing component lowers the overall confidence');
});
