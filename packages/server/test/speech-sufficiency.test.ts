// Decisions §16: speakers with too little speech to judge a voice (MIN_SPEECH_SEC_TO_JUDGE) are
// reported with `enough: false`, create no entity of their own (linked to an existing one when
// the voice matches), and a job that resolves to one fails with `not_enough_speech`, its credit
// released; entities with no appearance left are listed only with `?include=empty`; an entity
// without a label is named after its first appearance. The analyses are canned (canned-engine.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_SPEECH_SEC_TO_JUDGE, type MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, waitFor, type TestApp } from './helpers.ts';
import { cannedAnalysis, cannedEngine } from './canned-engine.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import type { Media } from '../src/files/files.schemas.ts';
import type { Entity } from '../src/entities/entities.schemas.ts';
import type { Job } from '../src/jobs/jobs.schemas.ts';

describe('speakers with little speech (decisions §16)', () => {
  let t: TestApp;
  const queue: MediaAnalysis[] = [];
  const short = MIN_SPEECH_SEC_TO_JUDGE / 2;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_JOB_STATUS: '100000', RATE_LIMIT_FILES: '100000', RATE_LIMIT_ENTITIES: '100000' }, {
      engine: cannedEngine(() => queue.shift() ?? cannedAnalysis([20])),
    });
    t.composed.worker?.start();
  });
  after(() => t.close());

  const get = <T>(url: string) => call(t, t.main, { method: 'GET', url }).then((r) => json<T>(r));
  const upload = async (name: string, analysis: MediaAnalysis): Promise<Media> => {
    queue.push(analysis);
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), name) });
    assert.equal(res.statusCode, 201, res.body);
    const id = json<Media>(res).id;
    return waitFor(async () => {
      const m = await get<Media>(`/v1/files/${id}`);
      return m.analysis.status === 'ready' ? m : null;
    }, 30_000, 'analysis');
  };
  const entityCount = () => t.sql.count('SELECT COUNT(*) FROM entities WHERE workspace_id = ?', t.main.workspaceId);

  let first: Media;
  it('a speaker below the threshold is enough: false with no entity of its own; the other is named after its recording', async () => {
    const before = await entityCount();
    first = await upload('interview.wav', cannedAnalysis([20, short], [0, 1]));
    const [a, b] = first.analysis.speakers;
    assert.deepEqual([a?.enough, b?.enough], [true, false]);
    assert.ok(a?.entityId);
    assert.equal(b?.entityId, null);
    assert.ok((b?.speechSec ?? 99) < MIN_SPEECH_SEC_TO_JUDGE);
    assert.equal(await entityCount(), before + 1, 'one entity, for the speaker with enough speech');
    const entity = await get<Entity>(`/v1/entities/${a?.entityId ?? ''}`);
    assert.equal(entity.label, null);
    assert.equal(entity.name, 'Speaker 1 in interview.wav');
    assert.equal(entity.enough, true);
    assert.ok(!entity.name.includes(entity.id.slice(4, 10)));
  });

  it('a short speaker whose voice matches a person is linked to that person, creating nobody', async () => {
    const before = await entityCount();
    // Voice 0 (the first recording's speaker 1) speaks briefly here, after a new voice 2.
    const m = await upload('call.wav', cannedAnalysis([15, short], [2, 0]));
    assert.equal(m.analysis.speakers[1]?.enough, false);
    assert.equal(m.analysis.speakers[1]?.entityId, first.analysis.speakers[0]?.entityId);
    assert.equal(await entityCount(), before + 1, 'only the new voice with enough speech became a person');
  });

  it('a matching job that resolves to a short speaker fails with not_enough_speech, its credit released', async () => {
    const res = await call(t, t.main, {
      method: 'POST',
      url: '/v1/matching/jobs',
      payload: {
        context: 'behavioral_compatibility',
        target: { type: 'media_target', mediaId: first.id, selector: { strategy: 'speaker_index', speaker_index: 0 } },
        group: [{ type: 'media_target', mediaId: first.id, selector: { strategy: 'speaker_index', speaker_index: 1 } }],
      },
    });
    assert.equal(res.statusCode, 202, res.body);
    const job = await waitFor(async () => {
      const j = await get<Job>(`/v1/jobs/${json<{ jobId: string }>(res).jobId}`);
      return j.status === 'failed' || j.status === 'succeeded' ? j : null;
    }, 30_000, 'job end');
    assert.equal(job.status, 'failed');
    assert.equal(job.error?.code, 'not_enough_speech');
    assert.match(job.error?.message ?? '', /group\[0\]: Speaker 2 in interview\.wav speaks/);
    // Its credit was reserved, then released: never charged.
    const ledger = (await get<{ data: { kind: string; jobId?: string }[] }>('/v1/credits/transactions?limit=100')).data;
    assert.deepEqual(ledger.filter((x) => x.jobId === job.id).map((x) => x.kind).sort(), ['release', 'reserve']);
  });

  it('an entity with no appearance left is not listed, unless ?include=empty', async () => {
    const m = await upload('alone.wav', cannedAnalysis([12], [7]));
    const entityId = m.analysis.speakers[0]?.entityId ?? '';
    assert.ok(entityId);
    const listed = async (query = '') => (await get<{ data: Entity[] }>(`/v1/entities?limit=100${query}`)).data.map((e) => e.id);
    assert.ok((await listed()).includes(entityId));
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${m.id}` })).statusCode, 204);
    assert.ok(!(await listed()).includes(entityId), 'an empty entity is not listed by default');
    assert.ok((await listed('&include=empty')).includes(entityId));
    const empty = await get<Entity>(`/v1/entities/${entityId}`);
    assert.equal(empty.speechSec, 0);
    assert.equal(empty.enough, false);
    const bad = await call(t, t.main, { method: 'GET', url: '/v1/entities?include=all' });
    assert.equal(bad.statusCode, 400);
    assert.equal(json<{ error: { details: { path: string }[] } }>(bad).error.details[0]?.path, '/query/include');
  });
});
