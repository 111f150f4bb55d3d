// The evidence schema of GET /v1/matching/:id/evidence and /v1/reports/:id/evidence against what
// the engine really builds, as stored (JSON): a matching of two speakers who met (entrainment
// cells), one who never met the target, a speaker known only from a transcript (language
// measures, no audio), and a report. The compiler holds the engine's type to the schema too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { aggregateMetrics, analyzeTranscript, buildMatching, buildReport, parseTranscript, type MatchingEvidence, type MediaAnalysis, type MemberInput } from '@rapport/analysis';
import { cannedAnalysis } from '../../test/canned-engine.ts';
import { TWO_NAMES_VTT } from '../files/files.fixtures.testkit.ts';
import { ResultEvidence, ResultHtml } from './results.schemas.ts';

// A field the schema has and the engine's type lacks, or types otherwise, fails the typecheck here.
const engineEvidenceFits = (e: MatchingEvidence): ResultEvidence => e;

const transcript = parseTranscript(TWO_NAMES_VTT);
assert.ok(transcript);
const media: Record<string, MediaAnalysis> = {
  med_talk: cannedAnalysis([40, 35]),
  med_alone: cannedAnalysis([30, 5], [7, 8]),
  med_text: analyzeTranscript(transcript),
};

function member(ref: string, name: string, entityId: string | null, mediaId: string, speakerIndex: number): MemberInput {
  const speaker = media[mediaId]?.speakers[speakerIndex];
  assert.ok(speaker, `${mediaId} has speaker ${speakerIndex}`);
  return { ref, name, entityId, metrics: aggregateMetrics([{ metrics: speaker.metrics }]), appearances: [{ mediaId, speakerIndex }] };
}

/** The evidence as GET answers it: the stored JSON text, parsed. */
const stored = (evidence: unknown): unknown => JSON.parse(JSON.stringify(evidence));

function assertValid(evidence: unknown, what: string): void {
  const errors = [...Value.Errors(ResultEvidence, evidence)].slice(0, 5).map((e) => `${e.instancePath}: ${e.message}`);
  assert.deepEqual(errors, [], what);
}

describe('ResultEvidence', () => {
  it('describes the evidence of a matching: a pair who met, one who never met, a transcript-only speaker', () => {
    const target = member('target', 'Ana', 'ent_ana', 'med_talk', 0);
    const group = [member('group[0]', 'Ben', 'ent_ben', 'med_talk', 1), member('group[1]', 'Cy', null, 'med_alone', 0), member('group[2]', 'Ben (text)', 'ent_text', 'med_text', 1)];
    const built = buildMatching({ target, group, media });
    const evidence = stored(built.evidence) as ResultEvidence;
    assertValid(evidence, 'matching evidence');
    assert.equal(evidence.kind, 'matching');
    assert.deepEqual(evidence.pairs.map((p) => p.met), [true, false, false]);
    assert.ok(evidence.pairs[0]?.components.some((c) => (c.cells?.length ?? 0) > 0), 'the pair who met has entrainment cells');
    assert.ok(evidence.group[2]?.appearances[0]?.noAudio, 'the transcript-only speaker has no audio');
    assert.ok(evidence.group[2]?.metrics.language, 'and language measures');
    assert.equal(engineEvidenceFits(built.evidence as MatchingEvidence), built.evidence);
  });

  it('describes the evidence of a report', () => {
    const evidence = stored(buildReport({ target: member('target', 'Ana', 'ent_ana', 'med_talk', 0), media }).evidence) as ResultEvidence;
    assertValid(evidence, 'report evidence');
    assert.deepEqual([evidence.kind, evidence.group, evidence.pairs, evidence.groupOverall], ['report', [], [], null]);
  });

  it('refuses what is not evidence: an unknown field, a missing one, a score off the scale', () => {
    const evidence = stored(buildReport({ target: member('target', 'Ana', 'ent_ana', 'med_talk', 0), media }).evidence) as Record<string, unknown>;
    assert.equal(Value.Check(ResultEvidence, { ...evidence, extra: 1 }), false);
    const { dimensions: _dropped, ...missing } = evidence;
    assert.equal(Value.Check(ResultEvidence, missing), false);
    assert.equal(Value.Check(ResultEvidence, { ...evidence, groupOverall: 101 }), false);
  });

  it('the HTML answer is text', () => {
    assert.equal(Value.Check(ResultHtml, '<!doctype html><title>x</title>'), true);
    assert.equal(Value.Check(ResultHtml, { html: '' }), false);
  });
});
