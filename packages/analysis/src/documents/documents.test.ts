import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatching } from './matching.ts';
import { buildReport } from './report.ts';
import { validateResultDocument } from './schema.ts';
import { ICON_NAMES } from './icons.ts';
import type { Block, MemberInput, ResultDocument } from './types.ts';
import { unexplainedFigures } from './figures.testkit.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis, Transcript } from '../types.ts';
import { analyzeTranscript } from '../transcript-analysis.ts';

// Recording A: Nora (target) and Omar talk, with a transcript. Recording B: Pia talks with
// someone else, no transcript. Nora and Pia never met.
const convA = conversation(11, 40, true);
const transcriptA: Transcript = {
  format: 'json',
  cues: convA.turns.map((t, k) => ({
    speaker: t.speaker === 0 ? 'Nora' : 'Omar',
    start: t.start,
    end: t.end,
    text: t.speaker === 0 ? (k % 4 === 0 ? 'What do you think we should do next?' : 'I think we could maybe try the other road.') : 'We went there last year and it was great.',
  })),
};
const media: Record<string, MediaAnalysis> = {
  med_a: makeMedia({ ...convA, transcript: transcriptA }),
  med_b: makeMedia(conversation(12, 30, false)),
};
function member(ref: string, name: string, entityId: string | null, apps: { mediaId: string; speakerIndex: number }[]): MemberInput {
  const metrics = aggregateMetrics(apps.map((a) => ({ metrics: media[a.mediaId]!.speakers[a.speakerIndex]!.metrics })));
  return { ref, name, entityId, metrics, appearances: apps };
}
const target = member('target', 'Nora', 'ent_nora', [{ mediaId: 'med_a', speakerIndex: 0 }]);
const omar = member('group[0]', 'Omar', 'ent_omar', [{ mediaId: 'med_a', speakerIndex: 1 }]);
const pia = member('group[1]', 'Pia', null, [{ mediaId: 'med_b', speakerIndex: 0 }]);

function blocksOf(doc: ResultDocument): Block[] {
  return doc.sections.flatMap((s) => (Array.isArray(s.section_content) ? s.section_content : 'type' in s.section_content ? [s.section_content as Block] : []));
}

function allStrings(doc: ResultDocument): string[] {
  const out = [doc.title, doc.summary];
  for (const s of doc.sections) out.push(s.section_title);
  for (const b of blocksOf(doc)) {
    if (b.type === 'card') out.push(b.title, b.content);
    if (b.type === 'text') out.push(b.content, ...(b.title ? [b.title] : []));
    if (b.type === 'grid') for (const c of b.items) out.push(c.title, c.content);
  }
  return out;
}

const matching = buildMatching({ target, group: [omar, pia], media });
const report = buildReport({ target: pia, media });

test('the matching document is valid against the result document schema, icons from the set', () => {
  assert.deepEqual(validateResultDocument(matching.document, { strictIcons: true }), []);
  assert.deepEqual(validateResultDocument(JSON.parse(JSON.stringify(matching.document)), { strictIcons: true }), []);
  for (const b of blocksOf(matching.document)) {
    const cards = b.type === 'card' ? [b] : b.type === 'grid' ? b.items : [];
    for (const c of cards) assert.ok(ICON_NAMES.includes(c.icon));
  }
});

test('sections in the order of decisions §11, with their illustrations', () => {
  const d = matching.document;
  assert.deepEqual(d.sections.map((s) => s.section_title), [
    'Overview', 'Nora at a glance', 'Nora and Omar', 'Nora and Pia', 'Growth opportunities', 'Method and confidence',
  ]);
  const variants = (i: number) => {
    const c = d.sections[i]?.section_content;
    return (Array.isArray(c) ? c : []).filter((b) => b.type === 'illustration').map((b) => (b.type === 'illustration' ? b.variant : ''));
  };
  assert.deepEqual(variants(0), ['connection']);
  assert.deepEqual(variants(2), ['conversation'], 'they spoke in the same media');
  assert.deepEqual(variants(3), [], 'they never met');
  assert.deepEqual(variants(4), ['growth']);
  assert.deepEqual(variants(5), ['analysis']);
  assert.match(d.title, /Nora/);
  assert.match(d.summary, /Strongest dimension: .+ \(\d+\); weakest: .+ \(\d+\)/);
});

test('the evidence has each member and each pair with component scores, inputs and confidence', () => {
  const e = matching.evidence;
  assert.deepEqual(e.group.map((g) => g.ref), ['group[0]', 'group[1]']);
  assert.equal(e.pairs[0]?.met, true);
  assert.equal(e.pairs[1]?.met, false);
  for (const p of e.pairs) {
    assert.ok(p.components.length > 0);
    for (const c of p.components) {
      assert.ok(Object.keys(c.inputs).length > 0);
      assert.ok(c.confidence >= 0 && c.confidence <= 1);
    }
  }
  const lsm = e.pairs[0]?.components.find((c) => c.key === 'languageStyle');
  assert.ok(lsm?.score !== null && lsm?.score !== undefined, 'both have transcript text in the shared media');
});

test('every figure in the markdown and the document is in the evidence', () => {
  for (const built of [matching, report]) {
    assert.deepEqual(unexplainedFigures(built.markdown, built.evidence), []);
    assert.deepEqual(unexplainedFigures(allStrings(built.document).join('\n'), built.evidence), []);
    assert.ok((built.markdown.match(/\d/g) ?? []).length > 30, 'the documents do quote figures');
  }
  // The check can fail: a figure that is not in the evidence is caught.
  assert.deepEqual(unexplainedFigures('score 12345.6789', matching.evidence), ['12345.6789']);
  assert.deepEqual(unexplainedFigures('spoke 97 min 13 s', matching.evidence), ['97 min 13 s']);
});

test('the markdown renders every title, card and text', () => {
  for (const built of [matching, report]) {
    for (const s of allStrings(built.document)) assert.ok(built.markdown.includes(s), `missing: ${s.slice(0, 60)}`);
  }
});

test('without a transcript the language measures are absent and the document says so', () => {
  assert.equal(report.evidence.target.metrics.language, null);
  assert.match(report.markdown, /No transcript was attached/);
  assert.match(matching.markdown, /no language style matching for Pia/);
  assert.match(matching.markdown, /questions/, 'Nora has a transcript: her language measures are shown');
});

test('interruptions not measured in a shared recording are said to be not measured, not counted as zero', () => {
  const other = member('group[0]', 'Quinn', null, [{ mediaId: 'med_b', speakerIndex: 1 }]);
  const built = buildMatching({ target: pia, group: [other], media });
  const pair = built.evidence.pairs[0]!;
  const interruptions = pair.components.find((c) => c.key === 'interruptions')!;
  assert.equal(interruptions.score, null);
  assert.equal(interruptions.inputs.interruptionsByTarget, null);
  const card = allStrings(built.document).find((t) => t.startsWith('Not measured: no recording they share shows overlapping speech'));
  assert.ok(card, 'the interruption card says why it is not measured');
  assert.doesNotMatch(built.markdown, /interrupted Quinn 0 times/);
});

test('the report document is valid and shaped for one person', () => {
  assert.deepEqual(validateResultDocument(report.document, { strictIcons: true }), []);
  assert.deepEqual(report.document.sections.map((s) => s.section_title), ['Overview', 'Voice and pace', 'Language', 'Growth opportunities', 'Method and confidence']);
  assert.equal(report.evidence.kind, 'report');
  assert.deepEqual(report.evidence.pairs, []);
});

test('the validator rejects what the schema forbids', () => {
  const ok = matching.document;
  const bad = (patch: (d: Record<string, unknown>) => void) => {
    const d = JSON.parse(JSON.stringify(ok)) as Record<string, unknown>;
    patch(d);
    return validateResultDocument(d);
  };
  assert.ok(bad((d) => { d.extra = 1; }).some((e) => e.includes('unknown field')));
  assert.ok(bad((d) => { d.schemaVersion = 2; }).length > 0);
  assert.ok(bad((d) => { d.title = ''; }).length > 0);
  assert.ok(bad((d) => { d.sections = []; }).length > 0);
  assert.ok(bad((d) => { (d.sections as { section_content: unknown }[])[0]!.section_content = [{ type: 'grid', columns: 5, items: [] }]; }).some((e) => e.includes('columns')));
  assert.ok(bad((d) => { (d.sections as { section_content: unknown }[])[0]!.section_content = { type: 'video' }; }).length > 0);
  assert.ok(bad((d) => { (d.sections as { section_content: unknown }[])[0]!.section_content = { type: 'illustration', variant: 'party' }; }).length > 0);
  assert.ok(bad((d) => { (d.sections as { section_content: unknown }[])[0]!.section_content = { type: 'card', title: 't', content: 'c' }; }).length > 0);
  assert.deepEqual(bad((d) => { (d.sections as { section_content: unknown }[])[0]!.section_content = {}; }), []);
  assert.deepEqual(validateResultDocument({ schemaVersion: 1, title: 't', summary: 's', sections: [{ section_title: 'x', section_content: { type: 'card', title: 'a', content: 'b', icon: 'sparkles' } }] }), []);
  assert.ok(validateResultDocument({ schemaVersion: 1, title: 't', summary: 's', sections: [{ section_title: 'x', section_content: { type: 'card', title: 'a', content: 'b', icon: 'sparkles' } }] }, { strictIcons: true }).length > 0);
  assert.ok(validateResultDocument(null).length > 0);
});

test('members measured from a transcript on its own: the limits say their figures come from the cues and the voice was not measured (no audio)', () => {
  const text = analyzeTranscript(transcriptA);
  const only: Record<string, MediaAnalysis> = { med_t: text };
  const m = (ref: string, name: string, speakerIndex: number): MemberInput => ({ ref, name, entityId: null, metrics: text.speakers[speakerIndex]!.metrics, appearances: [{ mediaId: 'med_t', speakerIndex }] });
  const doc = buildMatching({ target: m('target', 'Nora', 0), group: [m('group[0]', 'Omar', 1)], media: only });
  const limits = blocksOf(doc.document).find((b) => b.type === 'text' && b.title === 'Limits');
  assert.ok(limits && limits.type === 'text');
  assert.match(limits.content, /^Speakers, turns and gaps come from the transcripts' cues alone \(no audio\)/);
  assert.doesNotMatch(limits.content, /measured from the audio by the engine/);
  assert.deepEqual(doc.evidence.group.map((g) => g.appearances.map((a) => a.noAudio)), [[true]]);
  assert.deepEqual(validateResultDocument(doc.document, { strictIcons: true }), []);
  // Beside recordings with audio, only the text-only member is named.
  const mixed = buildMatching({ target, group: [{ ...m('group[0]', 'Tess', 1) }], media: { ...media, ...only } });
  const mixedLimits = blocksOf(mixed.document).find((b) => b.type === 'text' && b.title === 'Limits');
  assert.ok(mixedLimits && mixedLimits.type === 'text');
  assert.match(mixedLimits.content, /measured from the audio by the engine itself; diarization errors move every figure\. For Tess, recordings that are transcripts without audio/);
});

test("a recording whose speaker count came from the voices alone is flagged in the document, with a hint to give", () => {
  const uncertain: Record<string, MediaAnalysis> = {
    ...media,
    med_b: { ...media.med_b!, warnings: [{ code: 'speaker_count_uncertain', found: 2, maybe: 'either', reason: 'estimated from the voices alone' }] },
  };
  const doc = buildMatching({ target, group: [omar, pia], media: uncertain });
  const block = blocksOf(doc.document).find((b) => b.type === 'text' && b.title === 'Speaker count');
  assert.ok(block && block.type === 'text');
  assert.match(block.content, /^In recordings of Pia, the number of speakers was found from the voices alone and may be wrong/);
  assert.match(doc.markdown, /speaker-count hint/);
  assert.deepEqual(doc.evidence.group.map((m) => m.appearances.map((a) => a.countUncertain)), [[false], [true]]);
  assert.deepEqual(validateResultDocument(doc.document, { strictIcons: true }), []);
  assert.deepEqual(unexplainedFigures(doc.markdown, doc.evidence), []);
  // Counts the user gave (or a transcript's names) carry no such warning: no block.
  assert.ok(!blocksOf(matching.document).some((b) => b.type === 'text' && b.title === 'Speaker count'));
});
