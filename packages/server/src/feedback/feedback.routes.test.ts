// /v1/feedback: ratings of the workspace's results, validated, listed newest first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, insertSucceededMatching, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { newId } from '../ids.ts';

interface Fb { id: string; resultId: string; rating: number; comment?: string; createdAt: string }

describe('feedback', () => {
  let t: TestApp;
  let resultId = '';
  before(async () => {
    t = await buildTestApp();
    const media = await insertMedia(t.services, t.main.workspaceId);
    const entity = await insertEntity(t.services, t.main.workspaceId);
    resultId = (await insertSucceededMatching(t.services, t.main.workspaceId, media.id, entity)).resultId;
  });
  after(async () => t.close());

  const post = (payload: Record<string, unknown>, tenant = t.main) => call(t, tenant, { method: 'POST', url: '/v1/feedback', payload });

  it('records feedback on a result of the workspace: 201 with the resource', async () => {
    const res = await post({ resultId, rating: 5, comment: 'spot on' });
    assert.equal(res.statusCode, 201, res.body);
    const fb = json<Fb>(res);
    assert.match(fb.id, /^fb_/);
    assert.deepEqual({ ...fb, id: '', createdAt: '' }, { id: '', resultId, rating: 5, comment: 'spot on', createdAt: '' });
    const bare = json<Fb>(await post({ resultId, rating: 1 }));
    assert.equal('comment' in bare, false);
    assert.equal((await post({ resultId, rating: 3, comment: '✓'.repeat(2000) })).statusCode, 201);
  });

  it('refuses bad ratings, long comments, unknown fields (400 VALIDATION_FAILED with the path)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ resultId, rating: 0 }, '/rating'],
      [{ resultId, rating: 6 }, '/rating'],
      [{ resultId, rating: 4.5 }, '/rating'],
      [{ resultId, rating: '5' }, '/rating'],
      [{ resultId }, '/rating'],
      [{ rating: 3 }, '/resultId'],
      [{ resultId, rating: 3, comment: 'x'.repeat(2001) }, '/comment'],
      [{ resultId, rating: 3, comment: null }, '/comment'],
      [{ resultId, rating: 3, mood: 'good' }, '/mood'],
    ];
    for (const [body, pointer] of cases) {
      const res = await post(body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      const e = json<ErrorJson>(res).error;
      assert.equal(e.code, 'VALIDATION_FAILED');
      assert.ok(e.details?.some((d) => d.path === pointer), `${pointer}: ${JSON.stringify(e.details)}`);
    }
  });

  it("400 REFERENCE_NOT_FOUND for an unknown result or another workspace's result", async () => {
    for (const res of [await post({ resultId: newId('mat'), rating: 3 }), await post({ resultId, rating: 3 }, t.other)]) {
      assert.equal(res.statusCode, 400);
      assert.equal(json<ErrorJson>(res).error.code, 'REFERENCE_NOT_FOUND');
      assert.equal(json<ErrorJson>(res).error.details?.[0]?.path, '/resultId');
    }
  });

  it('lists feedback newest first with paging; other workspaces see none of it', async () => {
    const a = json<Fb>(await post({ resultId, rating: 2 }));
    const b = json<Fb>(await post({ resultId, rating: 4 }));
    const page = json<{ data: Fb[]; nextCursor: string | null }>(await call(t, t.main, { method: 'GET', url: '/v1/feedback?limit=2' }));
    assert.deepEqual(page.data.map((f) => f.id), [b.id, a.id]);
    assert.ok(page.nextCursor);
    const rest = json<{ data: Fb[] }>(await call(t, t.main, { method: 'GET', url: `/v1/feedback?cursor=${page.nextCursor}` }));
    assert.ok(rest.data.length >= 3);
    assert.deepEqual(json<{ data: Fb[] }>(await call(t, t.other, { method: 'GET', url: '/v1/feedback' })).data, []);
  });
});
