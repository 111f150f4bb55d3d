import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaRecord } from '../files/media.store.ts';
import { unlabelledEntityName } from './member-resolver.ts';

const record = (id: string, filename: string, label: string | null = null) => [id, { id, filename, label } as unknown as MediaRecord] as const;

test('an entity without a label is named after its first appearance, briefly after the first mention', () => {
  const media = new Map([record('med_a', 'interview.wav'), record('med_b', 'call.mp3', 'Monday call'), record('med_c', 'c.wav')]);
  assert.deepEqual(unlabelledEntityName([{ mediaId: 'med_a', speakerIndex: 1 }], media), { name: 'Speaker 2 in interview.wav', shortName: 'Speaker 2' });
  assert.deepEqual(unlabelledEntityName([{ mediaId: 'med_b', speakerIndex: 0 }, { mediaId: 'med_a', speakerIndex: 2 }], media), { name: 'Speaker 1 in Monday call and 1 other recording', shortName: 'Speaker 1' });
  assert.deepEqual(unlabelledEntityName([{ mediaId: 'med_gone', speakerIndex: 0 }, { mediaId: 'med_a', speakerIndex: 0 }, { mediaId: 'med_c', speakerIndex: 3 }], media).name, 'Speaker 1 in interview.wav and 2 other recordings');
  assert.equal(unlabelledEntityName([], media).name, 'Unnamed speaker');
});
