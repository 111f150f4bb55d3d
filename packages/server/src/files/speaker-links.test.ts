// Speaker → entity links after an analysis, and the running-mean voiceprint they carry; the
// store's appearance counts that feed it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, type TestApp } from '../../test/helpers.ts';
import { fileUpload, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';
import { carriedEntities, speakerLinks } from './speaker-links.ts';

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

describe('re-analysis: carriedEntities and replaced voiceprints', () => {
  const seg = (speaker: number, start: number, end: number) => ({ speaker, start, end });
  const prev = (entityId: string, segments: [number, number][]) => ({ entityId, voiceprint: [1, 0], segments });

  it('a new speaker who speaks when a previous one did keeps its entity, whatever its new index', () => {
    const previous = [prev('ent_a', [[0, 4], [8, 12]]), prev('ent_b', [[4, 8]])];
    const carried = carriedEntities(previous, [seg(0, 4.1, 8), seg(1, 0, 4), seg(1, 8, 12)]);
    assert.deepEqual([...carried].sort(), [[0, 'ent_b'], [1, 'ent_a']]);
  });

  it('a previous speaker split in two keeps its entity on the larger part only; the other part is left to voice linking', () => {
    const carried = carriedEntities([prev('ent_a', [[0, 10]])], [seg(0, 0, 6), seg(1, 6, 10)]);
    assert.deepEqual([...carried], [[0, 'ent_a']]);
  });

  it('two previous speakers merged into one: the one sharing the most time', () => {
    const carried = carriedEntities([prev('ent_a', [[0, 3]]), prev('ent_b', [[3, 10]])], [seg(0, 0, 10)]);
    assert.deepEqual([...carried], [[0, 'ent_b']]);
  });

  it('no entity when the shared time is half of the new speaker\'s speech or less, and half of the previous speaker\'s or less', () => {
    assert.equal(carriedEntities([prev('ent_a', [[0, 5]])], [seg(0, 0, 10)]).size, 1, 'the previous speaker lies wholly inside the new one');
    assert.equal(carriedEntities([prev('ent_a', [[0, 10]])], [seg(0, 5, 15)]).size, 0, 'half of each');
    assert.equal(carriedEntities([prev('ent_a', [[0, 10]])], [seg(0, 4.9, 15)]).size, 1);
    assert.equal(carriedEntities([prev('ent_a', [[0, 5.01]])], [seg(0, 0, 10)]).size, 1);
    assert.equal(carriedEntities([], [seg(0, 0, 10)]).size, 0);
  });

  it('a voice split in many before and one now keeps the person of the piece it shares most with', () => {
    const out = carriedEntities([prev('ent_a', [[0, 2]]), prev('ent_b', [[2, 5]]), prev('ent_c', [[5, 6]])], [seg(0, 0, 20)]);
    assert.deepEqual([...out], [[0, 'ent_b']]);
  });

  it('a speaker with too little speech creates no entity; linked by voice, it leaves the voiceprint as it was (decisions §16)', () => {
    const known = [{ entityId: 'ent_a', voiceprint: [2, 0], appearances: 1 }];
    const links = speakerLinks([{ index: 0, speechSec: 1, voiceprint: [1, 1], label: null }, { index: 1, speechSec: 1, voiceprint: [2, 1], label: null }], [null, 'ent_a'], known, () => 'ent_new');
    assert.deepEqual(links, [{ speakerIndex: 1, entityId: 'ent_a', speechSec: 1 }]);
  });

  it("a carried speaker replaces this media's share of the entity's mean; another model's voiceprint is replaced whole", () => {
    // The entity's mean [2, 0] covers 2 media: this one gave [3, 0] before, the other [1, 0].
    const known = [{ entityId: 'ent_a', voiceprint: [2, 0], appearances: 1 }, { entityId: 'ent_b', voiceprint: [9, 9, 9], appearances: 0 }];
    const links = speakerLinks([speaker(0, [3, 2]), speaker(1, [4, 4])], ['ent_a', 'ent_b'], known, () => 'unused', new Map([[0, [3, 0]], [1, [9, 9, 9]]]));
    // (1 + 3) / 2 = 2 and (0 + 2) / 2 = 1
    assert.deepEqual(links[0], { speakerIndex: 0, entityId: 'ent_a', speechSec: 5, voiceprint: [2, 1] });
    assert.deepEqual(links[1], { speakerIndex: 1, entityId: 'ent_b', speechSec: 5, voiceprint: [4, 4] });
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
    const [link] = speakerLinks([{ index: 0, speechSec: 5, voiceprint: [0, 1], label: null }], ['ent_x1'], [before!], () => 'unused');
    await t.services.stores.media.completeAnalysis(second.id, analysis, [link!]);
    const after = (await t.services.stores.entities.voiceprints(t.main.workspaceId)).find((v) => v.entityId === 'ent_x1');
    assert.deepEqual(after, { entityId: 'ent_x1', voiceprint: [0.5, 0.5], appearances: 2 });
    const excluding = (await t.services.stores.entities.voiceprints(t.main.workspaceId, second.id)).find((v) => v.entityId === 'ent_x1');
    assert.equal(excluding?.appearances, 1);
  });
});
