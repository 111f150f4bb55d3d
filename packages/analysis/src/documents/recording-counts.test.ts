// "Spoke together in N recordings" counts conversations, not appearances (decisions §18): a person
// listed twice in one media (two speakers of it merged into one entity, or the same appearance
// twice) is one recording, and a pair that spoke in one media has one shared recording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memberEvidence, pairEvidence } from './evidence.ts';
import { buildMatching } from './matching.ts';
import type { MemberInput } from './types.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import type { MediaAnalysis } from '../types.ts';

const media: Record<string, MediaAnalysis> = { med_a: makeMedia(conversation(21, 40, true)), med_b: makeMedia(conversation(22, 30, false)) };

function member(ref: string, name: string, apps: { mediaId: string; speakerIndex: number }[]): MemberInput {
  const metrics = aggregateMetrics(apps.map((a) => ({ metrics: media[a.mediaId]!.speakers[a.speakerIndex]!.metrics })));
  return { ref, name, entityId: `ent_${name}`, metrics, appearances: apps };
}

test('appearances listed more than once in one media count one recording, and one shared conversation', () => {
  const target = member('target', 'Nora', [{ mediaId: 'med_a', speakerIndex: 0 }, { mediaId: 'med_a', speakerIndex: 0 }, { mediaId: 'med_b', speakerIndex: 0 }]);
  const omar = member('group[0]', 'Omar', [{ mediaId: 'med_a', speakerIndex: 1 }, { mediaId: 'med_a', speakerIndex: 1 }]);
  assert.equal(memberEvidence(target, media).mediaCount, 2);
  assert.equal(memberEvidence(omar, media).mediaCount, 1);
  const pair = pairEvidence(target, omar, media);
  assert.deepEqual(pair.sharedMediaIds, ['med_a']);
  assert.equal(pair.sharedMediaCount, 1);
  const { markdown } = buildMatching({ target, group: [omar], media });
  assert.match(markdown, /spoke together in 1 recording\./);
  assert.doesNotMatch(markdown, /together in [2-9]/);
  assert.match(markdown, /Omar: [^.]*speech in 1 recording,/);
  assert.match(markdown, /Nora: [^.]*speech in 2 recordings,/);
});
