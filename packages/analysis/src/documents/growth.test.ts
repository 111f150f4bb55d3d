import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatching } from './matching.ts';
import { buildReport } from './report.ts';
import { validateResultDocument } from './schema.ts';
import { makeMedia, turn } from '../behavior/fixtures.testkit.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import type { MemberInput } from './types.ts';
import type { MediaAnalysis } from '../types.ts';

// Quinn lectures, Rae barely gets a word in and waits long before speaking.
const turns: ReturnType<typeof turn>[] = [];
let t = 0;
for (let k = 0; k < 12; k += 1) {
  const speaker = k % 2;
  const start = t + (speaker === 1 ? 1.6 : 0.2);
  const end = start + (speaker === 0 ? 20 : 1.5);
  turns.push(turn(speaker, start, end));
  t = end;
}
const media: Record<string, MediaAnalysis> = { med_x: makeMedia({ durationSec: t + 1, turns }) };
const member = (ref: string, name: string, speakerIndex: number): MemberInput => ({
  ref,
  name,
  entityId: null,
  metrics: aggregateMetrics([{ metrics: media.med_x!.speakers[speakerIndex]!.metrics }]),
  appearances: [{ mediaId: 'med_x', speakerIndex }],
});

test('growth opportunities come from the weakest components and quote their inputs', () => {
  const built = buildMatching({ target: member('target', 'Quinn', 0), group: [member('group[0]', 'Rae', 1)], media });
  const floor = built.evidence.pairs[0]?.components.find((c) => c.key === 'floorBalance');
  assert.ok(floor?.score !== null && (floor?.score ?? 100) < 60);
  const growth = built.document.sections.find((s) => s.section_title === 'Growth opportunities');
  const text = JSON.stringify(growth);
  assert.match(text, /Give Rae the floor/);
  const share = Math.round((floor?.inputs.targetShareOfPair ?? 0) * 100);
  assert.match(text, new RegExp(`Quinn held ${share}% of their shared talk`));
  assert.match(built.document.summary, /weakest: floor balance/);
});

test('a report flags long gaps and a small talk share from the profile', () => {
  const built = buildReport({ target: member('target', 'Rae', 1), media });
  assert.deepEqual(validateResultDocument(built.document, { strictIcons: true }), []);
  assert.match(built.markdown, /Answer a little sooner/);
  assert.match(built.markdown, /median gap of Rae before taking the floor is 1\.60 s/);
  assert.match(built.markdown, /Take the floor more/);
});

test('a member without speech: nothing to score, the document still validates and says so', () => {
  const silent: MemberInput = { ...member('group[0]', 'Sol', 1), metrics: aggregateMetrics([]), appearances: [] };
  const built = buildMatching({ target: member('target', 'Quinn', 0), group: [silent], media });
  assert.deepEqual(validateResultDocument(built.document, { strictIcons: true }), []);
  assert.equal(built.evidence.pairs[0]?.overall.score, null);
  assert.match(built.document.summary, /could not be scored/);
});

test('the same speaker on both sides is not a meeting', () => {
  const built = buildMatching({ target: member('target', 'Quinn', 0), group: [member('group[0]', 'Quinn again', 0)], media });
  assert.equal(built.evidence.pairs[0]?.met, false);
});

test('a transcript without lines for this member: the document says why language is absent', () => {
  const withTranscript = makeMedia({
    durationSec: t + 1,
    turns,
    transcript: { format: 'json', cues: turns.filter((x) => x.speaker === 0).map((x) => ({ speaker: 'Quinn', start: x.start, end: x.end, text: 'As I was saying.' })) },
  });
  const rae: MemberInput = { ref: 'target', name: 'Rae', entityId: null, metrics: withTranscript.speakers[1]!.metrics, appearances: [{ mediaId: 'm', speakerIndex: 1 }] };
  const built = buildReport({ target: rae, media: { m: withTranscript } });
  assert.equal(rae.metrics.language, null);
  assert.match(built.markdown, /none of its lines could be attributed to Rae/);
});
