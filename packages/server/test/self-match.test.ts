// Decisions §14: no score for a person with themself. A group member that is visibly the target
// (the same entity, or the same media with the same selector) is a 400 at creation; one that only
// turns out to be the target at resolution fails the job with `target_in_group`, its credit
// released. The analysis is canned (canned-engine.ts): two speakers with plenty of speech.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, waitFor, type ErrorJson, type TestApp } from './helpers.ts';
import { cannedAnalysis, cannedEngine } from './canned-engine.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import type { Media } from '../src/files/files.schemas.ts';
import type { Job } from '../src/jobs/jobs.schemas.ts';

describe('matching a person with themself (decisions §14)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_JOB_STATUS: '100000', RATE_LIMIT_FILES: '100000' }, { engine: cannedEngine(() => cannedAnalysis([30, 25])) });
    t.composed.worker?.start();
  });
  after(() => t.close());

  const create = (payload: object) => call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: { context: 'behavioral_compatibility', ...payload } });
  const media = (mediaId: string, selector: object) => ({ type: 'media_target', mediaId, selector });

  it('the same entity as target and member is 400 VALIDATION_FAILED pointing at the member, and no job or charge', async () => {
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    const other = await insertEntity(t.services, t.main.workspaceId);
    const before = await t.sql.count('SELECT COUNT(*) FROM jobs');
    const res = await create({ target: { type: 'entity_id', entityId }, group: [{ type: 'entity_id', entityId: other }, { type: 'entity_id', entityId }] });
    assert.equal(res.statusCode, 400, res.body);
    const err = json<ErrorJson>(res).error;
    assert.equal(err.code, 'VALIDATION_FAILED');
    assert.deepEqual(err.details?.map((d) => d.path), ['/group/1']);
    assert.match(err.details?.[0]?.message ?? '', /target itself/);
    assert.equal(await t.sql.count('SELECT COUNT(*) FROM jobs'), before);
  });

  it('the same media with the same selector (on_miss aside), or an entity and a selector naming it, is refused too', async () => {
    const m = await insertMedia(t.services, t.main.workspaceId);
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    const same = await create({ target: media(m.id, { strategy: 'speaker_index', speaker_index: 1 }), group: [media(m.id, { strategy: 'speaker_index', speaker_index: 1, on_miss: 'fallback_dominant' })] });
    assert.equal(same.statusCode, 400, same.body);
    assert.deepEqual(json<ErrorJson>(same).error.details?.map((d) => d.path), ['/group/0']);
    const byEntity = await create({ target: { type: 'entity_id', entityId }, group: [media(m.id, { strategy: 'entity_id', entity_id: entityId })] });
    assert.equal(byEntity.statusCode, 400, byEntity.body);
    // Other speakers of the same media are fine.
    const fine = await create({ target: media(m.id, { strategy: 'speaker_index', speaker_index: 0 }), group: [media(m.id, { strategy: 'speaker_index', speaker_index: 1 })] });
    assert.equal(fine.statusCode, 202, fine.body);
    await call(t, t.main, { method: 'POST', url: `/v1/jobs/${json<{ jobId: string }>(fine).jobId}/cancel` });
  });

  it('two selectors that resolve to the same speaker fail the job with target_in_group, its credit released', async () => {
    const up = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(2), 'talk.wav') });
    assert.equal(up.statusCode, 201, up.body);
    const mediaId = json<Media>(up).id;
    await waitFor(async () => json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${mediaId}` })).analysis.status === 'ready', 30_000, 'analysis');
    // Speaker 0 speaks the most: "dominant" and "index 0" are the same person.
    const res = await create({ target: media(mediaId, { strategy: 'dominant' }), group: [media(mediaId, { strategy: 'speaker_index', speaker_index: 0 })] });
    assert.equal(res.statusCode, 202, res.body);
    const { jobId } = json<{ jobId: string }>(res);
    const job = await waitFor(async () => {
      const j = json<Job>(await call(t, t.main, { method: 'GET', url: `/v1/jobs/${jobId}` }));
      return j.status === 'failed' || j.status === 'succeeded' ? j : null;
    }, 30_000, 'job end');
    assert.equal(job.status, 'failed');
    assert.equal(job.error?.code, 'target_in_group');
    assert.match(job.error?.message ?? '', /group\[0\]/);
    assert.equal(job.resultId, null);
    // Its credit was reserved, then released: never charged.
    const ledger = json<{ data: { kind: string; jobId?: string }[] }>(await call(t, t.main, { method: 'GET', url: '/v1/credits/transactions?limit=100' })).data;
    assert.deepEqual(ledger.filter((x) => x.jobId === jobId).map((x) => x.kind).sort(), ['release', 'reserve']);

    // The entity behind speaker 1, against speaker 1 of the media: the same person, found at resolution.
    const speakers = json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${mediaId}` })).analysis.speakers;
    const entityId = speakers[1]?.entityId;
    assert.ok(entityId);
    const res2 = await create({ target: { type: 'entity_id', entityId }, group: [media(mediaId, { strategy: 'speaker_index', speaker_index: 1 })] });
    assert.equal(res2.statusCode, 202, res2.body);
    const job2 = await waitFor(async () => {
      const j = json<Job>(await call(t, t.main, { method: 'GET', url: `/v1/jobs/${json<{ jobId: string }>(res2).jobId}` }));
      return j.status === 'failed' || j.status === 'succeeded' ? j : null;
    }, 30_000, 'job end');
    assert.equal(job2.error?.code, 'target_in_group');
  });
});
