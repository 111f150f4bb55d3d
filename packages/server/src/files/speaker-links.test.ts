// Speaker → entity links after an analysis, and the running-mean voiceprint they carry; the
// store's appearance counts that feed it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, type TestApp } from '../../test/helpers.ts';
import { fileUpload, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';
import { speakerLinks } from './speaker-links.ts';

const speaker = (index: number, voiceprint: number[], label: string | null = null) => ({ index, speechSec: 5, voiceprint, label });

describe('speakerLinks', () => {
  it('a new voice creates an entity with its own voiceprint and label', () => {
    const links = speakerLinks([speaker(0, [1, 2], 'Ana')], [null], [], () => 'ent_new');
    assert.deepEqual(links, [{ speakerIndex: 0, entityId: 'ent_new', speechSec: 5, create: { voiceprint: [1, 2], label: 'Ana' } }]);
  });

  it('a linked voice moves the entity voiceprint to the mean over its appearances', () => {
    const known = [{ entityId: 'ent_a', voiceprint: [1, 1], appearances: 3 }];
    const [link] = speakerLinks([speaker(0, [5, -3])], ['ent_a'], known, () => 'unused');
    // (1 * 3 + 5) / 4 = 2 and (1 * 3 - 3) / 4 = 0
    assert.deepEqual(link, { speakerIndex: 0, entityId: 'ent_a', speechSec: 5, voiceprint: [2, 0] });
  });

  it('a voiceprint of another length (another extractor) never updates the stored one', () => {
    const known = [{ entityId: 'ent_a', voiceprint: [1, 1, 1], appearances: 1 }];
    const [link] = speakerLinks([speaker(0, [5, -3])], ['ent_a'], known, () => 'unused');
    assert.equal(link?.voiceprint, undefined);
    assert.equal(link?.entityId, 'ent_a');
  });
});

describe('entity voiceprints for linking', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000' });
  });
  after(async () => t.close());

  const analysis = { version: 1, durationSec: 2, segments: [], speakers: [{ index: 0, label: null }], turns: [], transcript: null, method: {} } as unknown as MediaAnalysis;
  const upload = async (): Promise<Media> => json<Media>(await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'a.wav') }));

  it('count the media an entity appears in, except the one being linked, and store the mean', async () => {
    const first = await upload();
    await t.services.stores.media.completeAnalysis(first.id, analysis, [{ speakerIndex: 0, entityId: 'ent_x1', speechSec: 1, create: { voiceprint: [1, 0], label: null } }]);
    const second = await upload();
    const before = (await t.services.stores.entities.voiceprints(t.main.workspaceId, second.id)).find((v) => v.entityId === 'ent_x1');
    assert.deepEqual(before, { entityId: 'ent_x1', voiceprint: [1, 0], appearances: 1 });
    const [link] = speakerLinks([{ index: 0, speechSec: 1, voiceprint: [0, 1], label: null }], ['ent_x1'], [before!], () => 'unused');
    await t.services.stores.media.completeAnalysis(second.id, analysis, [link!]);
    const after = (await t.services.stores.entities.voiceprints(t.main.workspaceId)).find((v) => v.entityId === 'ent_x1');
    assert.deepEqual(after, { entityId: 'ent_x1', voiceprint: [0.5, 0.5], appearances: 2 });
    const excluding = (await t.services.stores.entities.voiceprints(t.main.workspaceId, second.id)).find((v) => v.entityId === 'ent_x1');
    assert.equal(excluding?.appearances, 1);
  });
});
