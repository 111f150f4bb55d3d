// Matching jobs end to end through the HTTP layer (app.inject): the 202 receipt, idempotency
// (body key and header, replay, 422, 409), the job resource, by-job null/payload/404, results,
// cancel, listing with cursors, and an honest failure when no engine is wired in.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { buildTestApp, call, insertEntity, insertMedia, insertSucceededMatching, json, matchingBody, waitFor, type ErrorJson, type TestApp } from './helpers.ts';
import { requestHash } from '../src/idempotency/idempotency.store.ts';
import { Job } from '../src/jobs/jobs.schemas.ts';
import { JobReceipt } from '../src/jobs/job-request.schemas.ts';
import { MatchingPayload } from '../src/matching/matching.schemas.ts';

let t: TestApp;
let mediaId: string;
let entityId: string;

const create = (payload: object, headers: Record<string, string> = {}) => call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload, headers });
const jobCount = async () => (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))?.n ?? 0;
const reserved = async (ws: string) => (await t.sql.get<{ reserved: number }>('SELECT reserved FROM workspaces WHERE id = ?', ws))?.reserved;

describe('matching jobs', () => {
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_JOB_STATUS: '100000' });
    mediaId = (await insertMedia(t.services, t.main.workspaceId, { kind: 'transcript' })).id;
    entityId = await insertEntity(t.services, t.main.workspaceId);
  });
  after(() => t.close());

  it('answers 202 with the receipt and Location', async () => {
    const res = await create(matchingBody(mediaId, entityId, { label: 'Weekly sync' }));
    assert.equal(res.statusCode, 202);
    const receipt = json(res);
    assert.ok(Value.Check(JobReceipt, receipt), res.body);
    assert.equal(receipt.status, 'queued');
    assert.equal(typeof receipt.estimatedWaitSec, 'number');
    assert.equal(res.headers.location, `/v1/jobs/${String(receipt.jobId)}`);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['idempotent-replayed'], undefined);
  });

  it('the job resource has the shape of §6', async () => {
    const { jobId } = json<{ jobId: string }>(await create(matchingBody(mediaId, entityId, { label: 'L' })));
    const res = await call(t, t.main, { method: 'GET', url: `/v1/jobs/${jobId}` });
    assert.equal(res.statusCode, 200);
    const job = json(res);
    assert.ok(Value.Check(Job, job), res.body);
    assert.deepEqual(
      { id: job.id, type: job.type, status: job.status, stage: job.stage, progress: job.progress, label: job.label, startedAt: job.startedAt, finishedAt: job.finishedAt, resultId: job.resultId, error: job.error },
      { id: jobId, type: 'matching', status: 'queued', stage: 'queued', progress: 0, label: 'L', startedAt: null, finishedAt: null, resultId: null, error: null },
    );
    assert.match(String(job.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  describe('idempotency', () => {
    for (const [form, body, headers] of [
      ['body key', (k: string) => matchingBody(mediaId, entityId, { idempotencyKey: k }), (_k: string) => ({})],
      ['Idempotency-Key header', (_k: string) => matchingBody(mediaId, entityId), (k: string) => ({ 'idempotency-key': k })],
    ] as const) {
      it(`${form}: a replay answers the first receipt with Idempotent-Replayed and creates nothing`, async () => {
        const key = `k-${form}-${Math.random()}`;
        const first = await create(body(key), headers(key));
        assert.equal(first.statusCode, 202);
        const n = await jobCount();
        const second = await create(body(key), headers(key));
        assert.equal(second.statusCode, 202);
        assert.equal(second.headers['idempotent-replayed'], 'true');
        assert.equal(json(second).jobId, json(first).jobId);
        assert.equal(second.headers.location, first.headers.location);
        assert.deepEqual(json(second), json(first));
        assert.equal(await jobCount(), n, 'no second job');
      });

      it(`${form}: the same key with another body answers 422`, async () => {
        const key = `k2-${form}-${Math.random()}`;
        assert.equal((await create(body(key), headers(key))).statusCode, 202);
        const other = { ...(body(key) as Record<string, unknown>), label: 'different' };
        const res = await create(other, headers(key));
        assert.equal(res.statusCode, 422);
        assert.equal(json<ErrorJson>(res).error.code, 'IDEMPOTENCY_KEY_REUSED');
      });
    }

    it('a key still in flight answers 409 IDEMPOTENCY_KEY_IN_USE', async () => {
      const body = matchingBody(mediaId, entityId, { idempotencyKey: 'in-flight-key' });
      // Take the key as a concurrent first request would, before it completes.
      const store = t.services.stores.idempotency;
      const scope = { workspaceId: t.main.workspaceId, route: 'POST /v1/matching/jobs', key: 'in-flight-key' };
      assert.equal((await store.take(scope, requestHash(body))).state, 'new');
      const n = await jobCount();
      const res = await create(body);
      assert.equal(res.statusCode, 409);
      assert.equal(json<ErrorJson>(res).error.code, 'IDEMPOTENCY_KEY_IN_USE');
      assert.equal(await jobCount(), n);
      // Once the first request completes, the key replays its answer.
      await store.complete(scope, { statusCode: 202, body: { jobId: 'job_fromthefirstrequest0000', status: 'queued' }, headers: { location: '/v1/jobs/job_fromthefirstrequest0000' } });
      const replay = await create(body);
      assert.equal(replay.statusCode, 202);
      assert.equal(json(replay).jobId, 'job_fromthefirstrequest0000');
    });

    it('keys are scoped to the workspace and to the route', async () => {
      const key = `scoped-${Math.random()}`;
      const first = await create(matchingBody(mediaId, entityId), { 'idempotency-key': key });
      const otherMedia = (await insertMedia(t.services, t.other.workspaceId, { kind: 'transcript' })).id;
      const otherEntity = await insertEntity(t.services, t.other.workspaceId);
      const inOther = await call(t, t.other, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(otherMedia, otherEntity), headers: { 'idempotency-key': key } });
      assert.equal(inOther.statusCode, 202);
      assert.notEqual(json(inOther).jobId, json(first).jobId);
      const report = await call(t, t.main, { method: 'POST', url: '/v1/reports/jobs', payload: { target: { type: 'entity_id', entityId } }, headers: { 'idempotency-key': key } });
      assert.equal(report.statusCode, 202);
      assert.notEqual(json(report).jobId, json(first).jobId);
    });

    it('a request refused for credits frees its key (402, then a retry may run)', async () => {
      const poor = await buildTestApp({ INITIAL_CREDITS: '0' });
      try {
        const m = (await insertMedia(poor.services, poor.main.workspaceId, { kind: 'transcript' })).id;
        const e = await insertEntity(poor.services, poor.main.workspaceId);
        const send = () => call(poor, poor.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(m, e, { idempotencyKey: 'poor' }) });
        const res = await send();
        assert.equal(res.statusCode, 402);
        assert.equal(json<ErrorJson>(res).error.code, 'INSUFFICIENT_CREDITS');
        (await poor.sql.run('UPDATE workspaces SET balance = 5 WHERE id = ?', poor.main.workspaceId));
        assert.equal((await send()).statusCode, 202);
      } finally {
        await poor.close();
      }
    });
  });

  describe('results by job', () => {
    it('null (200) while queued', async () => {
      const { jobId } = json<{ jobId: string }>(await create(matchingBody(mediaId, entityId)));
      const res = await call(t, t.main, { method: 'GET', url: `/v1/matching/by-job/${jobId}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, 'null');
      assert.match(String(res.headers['content-type']), /^application\/json/);
    });

    it('404 for an unknown job, a report job, and another workspace', async () => {
      const report = json<{ jobId: string }>(await call(t, t.main, { method: 'POST', url: '/v1/reports/jobs', payload: { target: { type: 'entity_id', entityId } } })).jobId;
      const { jobId } = json<{ jobId: string }>(await create(matchingBody(mediaId, entityId)));
      for (const [tenant, id] of [[t.main, 'job_doesnotexist00000000000'], [t.main, report], [t.other, jobId]] as const) {
        const res = await call(t, tenant, { method: 'GET', url: `/v1/matching/by-job/${id}` });
        assert.equal(res.statusCode, 404, id);
        assert.equal(json<ErrorJson>(res).error.code, 'NOT_FOUND');
      }
    });

    it('the payload once the job succeeded; the result, evidence and 404 for unknown results', async () => {
      const stored = await insertSucceededMatching(t.services, t.main.workspaceId, mediaId, entityId);
      const byJob = await call(t, t.main, { method: 'GET', url: `/v1/matching/by-job/${stored.jobId}` });
      assert.equal(byJob.statusCode, 200);
      assert.deepEqual(json(byJob), stored.payload);
      assert.ok(Value.Check(MatchingPayload, json(byJob)));
      const direct = await call(t, t.main, { method: 'GET', url: `/v1/matching/${stored.resultId}` });
      assert.deepEqual(json(direct), stored.payload);
      const job = json(await call(t, t.main, { method: 'GET', url: `/v1/jobs/${stored.jobId}` }));
      assert.deepEqual([job.status, job.stage, job.progress, job.resultId], ['succeeded', 'done', 1, stored.resultId]);
      assert.equal((await call(t, t.main, { method: 'GET', url: `/v1/matching/${stored.resultId}/evidence` })).statusCode, 200);
      assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/matching/mat_doesnotexist00000000000' })).statusCode, 404);
      assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/matching/mat_doesnotexist00000000000/evidence' })).statusCode, 404);
      // The standalone HTML file: the document escaped into one page that may load nothing.
      const html = await call(t, t.main, { method: 'GET', url: `/v1/matching/${stored.resultId}/html` });
      assert.equal(html.statusCode, 200);
      assert.match(String(html.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.match(String(html.headers['content-security-policy']), /default-src 'none'/);
      assert.match(html.body, /^<!doctype html>/);
      assert.match(html.body, /<h1>Fixture<\/h1>/);
      assert.doesNotMatch(html.body, /<script/);
      assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/matching/mat_doesnotexist00000000000/html' })).statusCode, 404);
      assert.equal((await call(t, t.other, { method: 'GET', url: `/v1/matching/${stored.resultId}/html` })).statusCode, 404, 'another workspace');
      assert.equal((await call(t, t.main, { method: 'GET', url: `/v1/reports/${stored.resultId}/html` })).statusCode, 404, 'not a report');
    });
  });

  describe('cancel', () => {
    it('a queued job ends failed with canceled, its credit released; cancelling again is 409', async () => {
      const before = await reserved(t.main.workspaceId) ?? 0;
      const { jobId } = json<{ jobId: string }>(await create(matchingBody(mediaId, entityId)));
      assert.equal(await reserved(t.main.workspaceId), before + 1);
      const res = await call(t, t.main, { method: 'POST', url: `/v1/jobs/${jobId}/cancel` });
      assert.equal(res.statusCode, 200, res.body);
      const job = json<{ status: string; error: { code: string } | null; finishedAt: string | null }>(res);
      assert.equal(job.status, 'failed');
      assert.equal(job.error?.code, 'canceled');
      assert.ok(job.finishedAt);
      assert.equal(await reserved(t.main.workspaceId), before);
      assert.equal((await call(t, t.main, { method: 'GET', url: `/v1/matching/by-job/${jobId}` })).body, 'null', 'null after failure');
      const again = await call(t, t.main, { method: 'POST', url: `/v1/jobs/${jobId}/cancel` });
      assert.equal(again.statusCode, 409);
      assert.equal(json<ErrorJson>(again).error.code, 'CONFLICT');
      const events = (await t.sql.all<{ event: string }>('SELECT event FROM job_events WHERE job_id = ? ORDER BY seq', jobId)).map((e) => e.event);
      assert.deepEqual(events, ['job.updated', 'job.failed']);
      const outbox = (await t.sql.all<{ type: string }>('SELECT type FROM events WHERE job_id = ?', jobId));
      assert.deepEqual(outbox.map((e) => e.type), ['matching.failed']);
    });

    it('a running job can be cancelled; a succeeded job answers 409', async () => {
      const { jobId } = json<{ jobId: string }>(await create(matchingBody(mediaId, entityId)));
      await t.services.stores.jobs.start(jobId);
      const res = await call(t, t.main, { method: 'POST', url: `/v1/jobs/${jobId}/cancel` });
      assert.equal(json<{ error: { code: string } }>(res).error.code, 'canceled');
      const done = await insertSucceededMatching(t.services, t.main.workspaceId, mediaId, entityId);
      const conflict = await call(t, t.main, { method: 'POST', url: `/v1/jobs/${done.jobId}/cancel` });
      assert.equal(conflict.statusCode, 409);
      assert.equal(json(await call(t, t.main, { method: 'GET', url: `/v1/jobs/${done.jobId}` })).status, 'succeeded');
    });
  });

  it('GET /v1/jobs lists newest first and pages with cursors to the end', async () => {
    const fresh = await buildTestApp();
    try {
      const m = (await insertMedia(fresh.services, fresh.main.workspaceId, { kind: 'transcript' })).id;
      const e = await insertEntity(fresh.services, fresh.main.workspaceId);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(json<{ jobId: string }>(await call(fresh, fresh.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(m, e) })).jobId);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: { id: string }[]; nextCursor: string | null } = json(await call(fresh, fresh.main, { method: 'GET', url: `/v1/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}` }));
        assert.ok(page.data.length <= 2);
        seen.push(...page.data.map((j) => j.id));
        cursor = page.nextCursor;
        // Opaque: not the store-wide number of the last job in clear ("s:<n>"), which would tell
        // other workspaces' volume, but one encrypted block (store/cursor.test.ts).
        if (cursor) {
          assert.match(cursor, /^[A-Za-z0-9_-]{22}$/);
          assert.doesNotMatch(Buffer.from(cursor, 'base64url').toString('latin1'), /^s:\d+$/);
        }
      } while (cursor);
      assert.deepEqual(seen, [...ids].reverse());
      const failed = json<{ data: unknown[] }>(await call(fresh, fresh.main, { method: 'GET', url: '/v1/jobs?status=failed' }));
      assert.equal(failed.data.length, 0);
    } finally {
      await fresh.close();
    }
  });
});

describe('a job without an analysis engine', () => {
  let w: TestApp;
  before(async () => {
    w = await buildTestApp({ JOB_LEASE_SEC: '2' });
  });
  after(() => w.close());

  it('fails with internal_error saying the engine is not available, never a made-up result', async () => {
    const m = (await insertMedia(w.services, w.main.workspaceId, { kind: 'transcript' })).id;
    const e = await insertEntity(w.services, w.main.workspaceId);
    const { jobId } = json<{ jobId: string }>(await call(w, w.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(m, e) }));
    w.composed.worker?.start();
    const job = await waitFor(async () => {
      const j = json<{ status: string; error: { code: string; message: string } | null; resultId: string | null }>(await call(w, w.main, { method: 'GET', url: `/v1/jobs/${jobId}` }));
      return j.status === 'failed' ? j : null;
    }, 10_000, 'the job to fail');
    assert.equal(job.error?.code, 'internal_error');
    assert.match(job.error?.message ?? '', /engine is not available/);
    assert.equal(job.resultId, null);
    assert.equal((await call(w, w.main, { method: 'GET', url: `/v1/matching/by-job/${jobId}` })).body, 'null');
    assert.equal((await w.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM results'))?.n, 0);
  });
});
