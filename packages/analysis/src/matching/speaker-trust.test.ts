import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import { buildMatching } from '../documents/matching.ts';
import type { MemberInput } from '../documents/types.ts';
import type { AnalysisWarning, MediaAnalysis } from '../types.ts';
import { CUES_ONLY_METHOD } from '../transcript-analysis.ts';
import { SPEAKER_TRUST, pairTrust, profileTrust, speakerTrust } from './speaker-trust.ts';

const UNCERTAIN: AnalysisWarning = { code: 'speaker_count_uncertain', found: 2, maybe: 'either', reason: 'from the voices alone' };

function media(separation: (number | undefined)[], warnings: AnalysisWarning[] = [], diarization = 'fixture'): MediaAnalysis {
  const m = makeMedia(conversation(7, 40, true));
  return {
    ...m,
    ...(warnings.length ? { warnings } : {}),
    method: { ...m.method, diarization },
    speakers: m.speakers.map((s, i) => {
      const sep = separation[i];
      return sep === undefined ? s : { ...s, separation: sep };
    }),
  };
}

test('speaker trust: 1 for a cleanly separated speaker of a sure count; lower with a count from the voices alone', () => {
  assert.equal(speakerTrust(media([1, 1], [], 'transcript-guided: one GMM-UBM speaker model per transcript name'), 0), 1);
  // From the voices alone, never sure (calibrated: see SPEAKER_TRUST.fromVoices).
  assert.equal(speakerTrust(media([1, 1]), 0), SPEAKER_TRUST.fromVoices);
  assert.equal(speakerTrust(media([1, 1], [UNCERTAIN]), 0), SPEAKER_TRUST.uncertainCount * SPEAKER_TRUST.fromVoices);
  assert.ok(speakerTrust(media([1, 1], [{ code: 'hint_not_met', asked: { numSpeakers: 3 }, found: 2, reason: 'x' }]), 0) < 1);
  assert.equal(speakerTrust(media([1, 1]), 5), 0, 'a speaker the analysis does not have');
});

test('speaker trust: non-decreasing in the separation, 0 for a speaker as near the others as itself', () => {
  let last = -1;
  for (let s = 0; s <= 1.0001; s += 0.01) {
    const t = speakerTrust(media([s, 1]), 0);
    assert.ok(t >= last - 1e-12 && t >= 0 && t <= 1, `separation ${s}`);
    last = t;
    // The count's doubt never raises it.
    assert.ok(speakerTrust(media([s, 1], [UNCERTAIN]), 0) <= t + 1e-12);
  }
  assert.equal(speakerTrust(media([SPEAKER_TRUST.separationNone, 1]), 0), 0);
});

test('speaker trust without a recorded separation: a transcript-guided speaker is trusted, an older analysis is the documented middle value', () => {
  assert.equal(speakerTrust(media([undefined, undefined], [], 'transcript-guided: one GMM-UBM speaker model per transcript name'), 0), 1);
  assert.equal(speakerTrust(media([undefined, undefined]), 0), SPEAKER_TRUST.unknownSeparation * SPEAKER_TRUST.fromVoices);
  assert.equal(speakerTrust(media([undefined, undefined], [], `${CUES_ONLY_METHOD}; no overlap`), 0), 1, 'a transcript on its own (decisions §19)');
});

test('pair trust: the weaker speaker of each shared recording, weighted by their speech there', () => {
  const clean = media([1, 1], [], 'transcript-guided: one GMM-UBM speaker model per transcript name');
  const mixed = media([1, 0.5], [], 'transcript-guided: one GMM-UBM speaker model per transcript name');
  assert.equal(pairTrust([{ analysis: mixed, a: 0, b: 1 }]), 0);
  const both = pairTrust([{ analysis: clean, a: 0, b: 1 }, { analysis: mixed, a: 0, b: 1 }]);
  assert.ok(Math.abs(both - 0.5) < 1e-9, `two recordings of equal speech: ${both}`);
  assert.equal(profileTrust([{ analysis: clean, speakerIndex: 1 }, { analysis: mixed, speakerIndex: 1 }]), both);
});

test('a pair figure between mixed speakers is not shown as certain: every confidence is held to the speaker trust, and the document says why', () => {
  const build = (m: MediaAnalysis) => {
    const member = (ref: string, name: string, i: number): MemberInput => ({ ref, name, entityId: null, metrics: m.speakers[i]!.metrics, appearances: [{ mediaId: 'med', speakerIndex: i }] });
    return buildMatching({ target: member('target', 'Ada', 0), group: [member('group[0]', 'Ben', 1)], media: { med: m } });
  };
  const sure = build(media([1, 1], [], 'transcript-guided: one GMM-UBM speaker model per transcript name'));
  const unsure = build(media([0.6, 0.99], [UNCERTAIN], 'transcript-guided: one GMM-UBM speaker model per transcript name'));
  const trust = unsure.evidence.pairs[0]!.trust;
  assert.ok(trust < 0.5, `trust ${trust}`);
  for (const [i, c] of unsure.evidence.pairs[0]!.components.entries()) {
    const base = sure.evidence.pairs[0]!.components[i]!.confidence;
    assert.ok(Math.abs(c.confidence - base * trust) < 1e-9, c.key);
  }
  assert.equal(sure.evidence.pairs[0]!.trust, 1);
  assert.ok(sure.evidence.pairs[0]!.overall.confidence > unsure.evidence.pairs[0]!.overall.confidence);
  assert.ok(unsure.evidence.pairs[0]!.overall.confidence <= trust);
  assert.ok(unsure.evidence.target.profileConfidence <= unsure.evidence.target.profileTrust);
  assert.equal(unsure.evidence.target.appearances[0]!.separation, 0.6);
  assert.match(unsure.markdown, /may be mixed with other voices \(speaker trust \d+%\)/);
  assert.doesNotMatch(sure.markdown, /may be mixed/);
});
