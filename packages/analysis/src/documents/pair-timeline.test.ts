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
