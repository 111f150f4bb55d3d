// Tenant isolation (decisions §3): a second workspace's key gets 404 for every id of the first
// workspace on every route that takes an id, changes nothing there, and sees none of its items
// in lists. Routes are read from the app itself, so a new id-taking route must be added here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { buildTestApp, call, insertEntity, insertMedia, insertSucceededMatching, json, matchingBody, type ErrorJson, type TestApp } from './helpers.ts';
import { registeredRoutes, type RegisteredRoute } from './routes.ts';
import { newId, nowIso } from '../src/ids.ts';

let t: TestApp;
const ids: Record<string, string> = {};

/** The first workspace's id for a path parameter, by route. */
function idFor(route: RegisteredRoute, param: string): string | null {
  const u = route.url;
  if (param === 'tag') return 'vip';
  if (u.startsWith('/v1/jobs/')) return ids.job ?? null;
  if (u.startsWith('/v1/matching/by-job/')) return ids.matchingJob ?? null;
  if (u.startsWith('/v1/matching/')) return ids.matching ?? null;
  if (u.startsWith('/v1/reports/by-job/')) return ids.reportJob ?? null;
  if (u.startsWith('/v1/reports/')) return ids.report ?? null;
  if (u.startsWith('/v1/files/')) return ids.media ?? null;
  if (u.startsWith('/v1/entities/')) return ids.entity ?? null;
  if (u.startsWith('/v1/webhooks/deliveries/')) return ids.delivery ?? null;
  if (u.startsWith('/v1/workspace/keys/')) return ids.key ?? null;
  if (u.startsWith('/v1/feedback/')) return ids.feedback ?? null;
  if (u.startsWith('/v1/credits/transactions/')) return ids.transaction ?? null;
  return null;
}

/** A body that passes validation, so that the answer is about the id, not the body. */
function bodyFor(route: RegisteredRoute): object | undefined {
  if (!route.hasBody) return undefined;
  if (/\/entities\/:[^/]+\/tags$/.test(route.url)) return { tags: ['vip'] };
  if (/\/entities\/:[^/]+$/.test(route.url)) return { label: 'Renamed by another workspace' };
  return {};
}

describe('tenant isolation', () => {
  let routes: RegisteredRoute[];

  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_JOB_STATUS: '100000', RATE_LIMIT_FILES: '100000', RATE_LIMIT_ENTITIES: '100000', RATE_LIMIT_CREDITS: '100000' });
    routes = await registeredRoutes(t.services);
    const ws = t.main.workspaceId;
    const media = await insertMedia(t.services, ws, { kind: 'transcript', label: 'main media' });
    ids.media = media.id;
    // The file too, so that the owner can read its content.
    writeFileSync(media.storagePath, 'WEBVTT\n');
    ids.entity = await insertEntity(t.services, ws, 'Main person');
    const done = await insertSucceededMatching(t.services, ws, ids.media, ids.entity);
    ids.matching = done.resultId;
    ids.matchingJob = done.jobId;
    const queued = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(ids.media, ids.entity, { webhook: { url: 'https://hooks.example.com/x' } }) });
    ids.job = json<{ jobId: string }>(queued).jobId;
    // A report job with a stored report.
    const report = await t.services.stores.jobs.create({ workspaceId: ws, type: 'report', request: { target: { type: 'entity_id', entityId: ids.entity } }, cost: 1 });
    ids.reportJob = report.id;
    ids.report = newId('rep');
    await t.services.stores.jobs.succeed(report.id, {
      id: ids.report, kind: 'report', evidenceJson: JSON.stringify({ kind: 'report' }),
      payloadJson: JSON.stringify({ id: ids.report, jobId: report.id, context: 'behavioral_profile', createdAt: nowIso(), output: { template: 'report' }, target: { source: { type: 'entity_id', entityId: ids.entity } }, json: null, markdown: null }),
    }, { type: 'report.completed', data: { jobId: report.id, reportId: ids.report, status: 'succeeded' }, webhook: { url: 'https://hooks.example.com/r' } });
    const db = t.sql;
    ids.delivery = (await db.get<{ id: string }>('SELECT id FROM webhook_deliveries WHERE workspace_id = ? LIMIT 1', ws))?.id ?? '';
    ids.key = (await db.get<{ id: string }>('SELECT id FROM api_keys WHERE workspace_id = ? LIMIT 1', ws))?.id ?? '';
    ids.transaction = (await db.get<{ id: string }>('SELECT id FROM credit_transactions WHERE workspace_id = ? LIMIT 1', ws))?.id ?? '';
    ids.feedback = (await t.services.stores.feedback.insert(ws, { resultId: ids.matching, rating: 5, comment: null })).id;
    assert.ok(ids.delivery && ids.key && ids.transaction, 'fixtures written');
  });
  after(() => t.close());

  it('covers every id-taking /v1 route', () => {
    const idRoutes = routes.filter((r) => r.url.startsWith('/v1/') && r.url.includes(':'));
    assert.ok(idRoutes.length >= 8, `found ${idRoutes.length} id routes`);
    for (const r of idRoutes) {
      for (const param of r.url.match(/:[A-Za-z0-9_]+/g) ?? []) {
        assert.ok(idFor(r, param.slice(1)), `no first-workspace id for ${r.method} ${r.url} (${param}); add it to isolation.test.ts`);
      }
    }
  });

  it("answers 404 for every id of the first workspace on every route that takes one", async () => {
    const idRoutes = routes.filter((r) => r.url.startsWith('/v1/') && r.url.includes(':'));
    const checked: string[] = [];
    for (const r of idRoutes) {
      const url = r.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => encodeURIComponent(idFor(r, p) ?? 'missing'));
      const body = bodyFor(r);
      const res = await call(t, t.other, { method: r.method as 'GET', url, ...(body ? { payload: body } : {}) });
      assert.equal(res.statusCode, 404, `${r.method} ${url}: ${res.body}`);
      assert.equal(json<ErrorJson>(res).error.code, 'NOT_FOUND');
      // The owner reaches the same resource (so the 404 is about the workspace, not the id).
      if (r.method === 'GET' && !url.endsWith('/events')) {
        const own = await call(t, t.main, { method: 'GET', url });
        assert.notEqual(own.statusCode, 404, `owner ${url}: ${own.body}`);
      }
      checked.push(`${r.method} ${r.url}`);
    }
    assert.ok(checked.includes('POST /v1/jobs/:id/cancel'));
    assert.ok(checked.includes('GET /v1/matching/by-job/:jobId'));
  });

  it('changed nothing in the first workspace', async () => {
    const job = json(await call(t, t.main, { method: 'GET', url: `/v1/jobs/${ids.job}` }));
    assert.equal(job.status, 'queued', 'not cancelled by the other workspace');
    const label = (await t.sql.get<{ label: string }>('SELECT label FROM entities WHERE id = ?', ids.entity ?? ''))?.label;
    assert.equal(label, 'Main person');
    assert.equal((await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media WHERE id = ?', ids.media ?? ''))?.n, 1);
    assert.equal((await t.sql.get<{ r: string | null }>('SELECT revoked_at AS r FROM api_keys WHERE id = ?', ids.key ?? ''))?.r, null);
  });

  it('lists of the second workspace hold none of the first workspace items', async () => {
    const mine = new Set(Object.values(ids));
    const lists = routes.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/') && !r.url.includes(':') && !/events|openapi/.test(r.url));
    let sawData = 0;
    for (const r of lists) {
      const res = await call(t, t.other, { method: 'GET', url: r.url });
      if (res.statusCode !== 200) continue;
      const text = res.body;
      for (const id of mine) assert.ok(!text.includes(id), `${r.url} of the second workspace shows ${id}`);
      if (Array.isArray((JSON.parse(text) as { data?: unknown }).data)) sawData++;
    }
    assert.ok(sawData >= 1, 'at least one list was checked');
    // The owner does see its own items in the job list.
    const own = await call(t, t.main, { method: 'GET', url: '/v1/jobs' });
    assert.ok(own.body.includes(ids.job ?? '-'));
  });

  it('a body referencing the first workspace media or entity is REFERENCE_NOT_FOUND', async () => {
    const res = await call(t, t.other, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(ids.media ?? '', ids.entity ?? '') });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(json<ErrorJson>(res).error.details?.map((d) => d.path).sort(), ['/group/0/entityId', '/target/mediaId']);
  });

  it('every other body reference to the first workspace is refused and changes nothing', async () => {
    const own = await insertEntity(t.services, t.other.workspaceId, 'Other person');
    const cases: [string, string, object, string][] = [
      ['merge from', '/v1/entities/merge', { into: own, from: [ids.entity] }, '/from/0'],
      ['merge into', '/v1/entities/merge', { into: ids.entity, from: [own] }, '/into'],
      ['feedback', '/v1/feedback', { resultId: ids.matching, rating: 5 }, '/resultId'],
      ['report target', '/v1/reports/jobs', { target: { type: 'entity_id', entityId: ids.entity } }, '/target/entityId'],
    ];
    for (const [what, url, payload, path] of cases) {
      if (!routes.some((r) => r.method === 'POST' && r.url === url)) continue;
      const res = await call(t, t.other, { method: 'POST', url, payload });
      assert.ok(res.statusCode === 400 || res.statusCode === 404, `${what}: ${res.body}`);
      const err = json<ErrorJson>(res).error;
      if (res.statusCode === 400) {
        assert.equal(err.code, 'REFERENCE_NOT_FOUND', what);
        assert.ok(err.details?.some((d) => d.path === path), `${what}: ${JSON.stringify(err.details)}`);
      }
    }
    assert.equal((await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM entities WHERE id = ?', ids.entity ?? ''))?.n, 1, 'not merged away');
    assert.equal((await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM feedback WHERE workspace_id = ?', t.other.workspaceId))?.n, 0);
  });
});
