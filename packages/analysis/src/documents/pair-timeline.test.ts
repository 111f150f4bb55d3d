// Issue 33 item 14: the HTML report draws the pair's turns on their shared recording under its
// `conversation` figure, with the very renderer the dashboard uses (pair-timeline.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleMatching } from './sample.testkit.ts';
import { renderHtml } from './html.ts';
import { conversationPairs, pairRecording, pairTimelineSvg } from './pair-timeline.ts';
import type { MatchingEvidence, ResultDocument } from './types.ts';

const built = sampleMatching();
const doc = built.document as ResultDocument;
const evidence = built.evidence as MatchingEvidence;
// The interview as the API answers its diarization: Ada is speaker 0, the guest speaker 1.
const interview = {
  durationSec: 20,
  segments: [{ speaker: 0, start: 0.5, end: 4 }, { speaker: 1, start: 3.5, end: 8 }, { speaker: 0, start: 8.4, end: 12 }, { speaker: 2, start: 12, end: 13 }],
};

test('the conversation block of the pair that met is drawn from the recording they share', () => {
  const pairs = conversationPairs(doc, evidence);
  assert.ok(pairs.length >= 1);
  const pair = pairs[0];
  assert.ok(pair);
  assert.equal(pairRecording(pair), 'med_interview');
  const svg = pairTimelineSvg(evidence, pair, interview) ?? '';
  // Two turns of Ada, one of the guest, one overlap (3.5–4 s); the third speaker is not drawn.
  assert.equal((svg.match(/<rect x=/g) ?? []).length, 3);
  assert.equal((svg.match(/class="overlap"/g) ?? []).length, 1);
  assert.match(svg, /aria-label="Turns of Ada and Speaker 2 over 0:20\.0, 1 overlap"/);
});

test('the HTML report carries it when given the shared recording, and nothing is fetched for it', () => {
  const html = renderHtml(doc, evidence, { shared: { med_interview: interview } });
  assert.equal((html.match(/class="pair-timeline-svg"/g) ?? []).length, 1);
  assert.ok(html.includes(pairTimelineSvg(evidence, conversationPairs(doc, evidence)[0]!, interview) ?? 'missing'), 'the same SVG the dashboard draws');
  assert.match(html, /Their turns in the recording they share \(0:20\.0\), overlaps shaded:/);
  assert.doesNotMatch(renderHtml(doc, evidence), /<svg[^>]*class="pair-timeline-svg"/, 'without the recording (deleted), the figure alone');
});

test('a long name stands whole above its row (issue 33 items 6 and 7: names were cut at 30 characters)', () => {
  const long = 'Ada Lovelace, Countess of Lovelace (interview)';
  const renamed: MatchingEvidence = { ...evidence, target: { ...evidence.target, name: long, shortName: long } };
  const pair = conversationPairs(doc, renamed)[0]!;
  const svg = pairTimelineSvg(renamed, pair, interview) ?? '';
  assert.ok(svg.includes(`>${long}<title>`), 'the label is the whole name');
  assert.doesNotMatch(svg, /…/);
});

test('the overlaps are those of every pair of segments, in the same order, found in linear time (issue 41, finding 2)', async () => {
  const { overlapsOf } = await import('./pair-timeline.ts');
  let x = 11;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const spans = (n: number) => Array.from({ length: n }, () => {
    const start = Math.round(rand() * 3000) / 10;
    return { start, end: Math.round((start + rand() * 20) * 10) / 10 };
  });
  for (let round = 0; round < 30; round++) {
    const as = spans(1 + Math.floor(rand() * 40));
    const bs = spans(Math.floor(rand() * 40));
    const naive: { start: number; end: number }[] = [];
    for (const s of as) for (const t of bs) {
      const start = Math.max(s.start, t.start);
      const end = Math.min(s.end, t.end);
      if (end > start) naive.push({ start, end });
    }
    assert.deepEqual(overlapsOf(as, bs), naive);
  }
  // An hour of alternating turns: 9,321 segments each, at once.
  const a = Array.from({ length: 9321 }, (_, k) => ({ start: k * 0.4, end: k * 0.4 + 0.25 }));
  const b = Array.from({ length: 9321 }, (_, k) => ({ start: k * 0.4 + 0.2, end: k * 0.4 + 0.38 }));
  const started = performance.now();
  assert.equal(overlapsOf(a, b).length, 9321);
  assert.ok(performance.now() - started < 200, `${Math.round(performance.now() - started)} ms`);
});
