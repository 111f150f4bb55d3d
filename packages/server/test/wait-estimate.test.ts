// Issue 32, finding 11: a receipt's estimatedWaitSec counted every workspace's queue, so a tenant
// could watch how busy the others were. It now counts the caller's workspace only (claims take
// turns between workspaces): another workspace's 5 queued jobs change nothing. Both backends.
// The jobs ahead are shared by the worker's WORKER_CONCURRENCY slots (2 here).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, type Tenant, type TestApp } from './helpers.ts';

describe('estimatedWaitSec', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ ROLE: 'api', WORKER_CONCURRENCY: '2', RATE_LIMIT_DEFAULT: '100000' });
  });
  after(() => t.close());

  async function create(tenant: Tenant): Promise<number> {
    const mediaId = (await insertMedia(t.services, tenant.workspaceId)).id;
    const entityId = await insertEntity(t.services, tenant.workspaceId);
    const res = await call(t, tenant, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(mediaId, entityId) });
    assert.equal(res.statusCode, 202, res.body);
    return json<{ estimatedWaitSec: number }>(res).estimatedWaitSec;
  }

  it("counts the caller's own queue, not other workspaces'", async () => {
    for (let i = 0; i < 5; i++) await create(t.other);
    // No job has finished yet: each job ahead counts 5 s, on one of 2 slots.
    assert.equal(await create(t.main), 0, 'nothing of this workspace is ahead');
    assert.equal(await create(t.main), 2.5, 'its first job is ahead');
    assert.equal(await create(t.other), 12.5, "the other workspace's five are ahead of its sixth");
  });
});
