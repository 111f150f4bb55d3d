// A receipt's estimatedWaitSec is the work the worker runs before the job starts. Every
// workspace's tasks share the worker, media analyses as well as jobs, and claims take turns
// between workspaces (queue.store.ts). It counted the workspace's own jobs alone: a job queued
// behind its own media's analysis, or behind another workspace's turns, was told 0 s. Now it
// counts the tasks running, the workspace's own queue (analyses included) and, of another
// workspace's queue, the tasks of the turns that come before the job's, no more (issue 32,
// finding 11: a tenant is not shown another's whole queue). Both backends. The work ahead is
// shared by the worker's WORKER_CONCURRENCY slots (2 here). No worker runs (ROLE=api), so the
// queue stays as the test makes it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, sleep, type Tenant, type TestApp } from './helpers.ts';
import { ANALYSIS_SPEED, ANALYSIS_START_SEC, DEFAULT_JOB_SEC, ESTIMATE_REFRESH_MS } from '../src/jobs/wait-estimate.ts';

describe('estimatedWaitSec', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ ROLE: 'api', WORKER_CONCURRENCY: '2', RATE_LIMIT_DEFAULT: '100000' });
  });
  after(() => t.close());

  const SLOTS = 2;
  // No job has finished: each job counts DEFAULT_JOB_SEC; each analysis (insertMedia: 30 s of media) its start and its media.
  const JOB = DEFAULT_JOB_SEC;
  const ANALYSIS = ANALYSIS_START_SEC + 30 / ANALYSIS_SPEED;
  const wait = (slotSec: number) => Math.round((slotSec / SLOTS) * 10) / 10;

  /** A media of the workspace (its analysis queued) and an entity, for jobs to name. */
  async function members(tenant: Tenant): Promise<{ mediaId: string; entityId: string }> {
    return { mediaId: (await insertMedia(t.services, tenant.workspaceId)).id, entityId: await insertEntity(t.services, tenant.workspaceId) };
  }

  async function create(tenant: Tenant, m: { mediaId: string; entityId: string }): Promise<number> {
    const res = await call(t, tenant, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(m.mediaId, m.entityId) });
    assert.equal(res.statusCode, 202, res.body);
    return json<{ estimatedWaitSec: number }>(res).estimatedWaitSec;
  }

  /** The workspace's place in the turns: the smaller last claim is served first. */
  const setTurn = (tenant: Tenant, lastClaim: number) => t.sql.run('UPDATE queue_turns SET last_claim = ? WHERE workspace_id = ?', lastClaim, tenant.workspaceId);

  let mainMembers: { mediaId: string; entityId: string };

  it("counts the workspace's queued analyses and each other workspace's tasks of the turns before the job", async () => {
    // The other workspace: one analysis and four jobs queued, 5 tasks.
    const otherMembers = await members(t.other);
    for (let i = 0; i < 4; i++) await create(t.other, otherMembers);
    const otherQueue = ANALYSIS + 4 * JOB;
    // This workspace: the analysis of the media its job names. It comes first in the turns.
    mainMembers = await members(t.main);
    await setTurn(t.main, 1);
    await setTurn(t.other, 2);
    // The queue is read again once its figures are a second old: now it holds all of the above.
    await sleep(ESTIMATE_REFRESH_MS + 50);

    // The job is this workspace's second claim: its analysis, then one of the other's tasks
    // (the other's turn between this workspace's two), then the job. It answered 0 before.
    assert.equal(await create(t.main, mainMembers), wait(ANALYSIS + otherQueue / 5), 'its analysis and one turn of the other workspace are ahead');
    // A second job: one more of its own ahead, one more turn of the other's.
    assert.equal(await create(t.main, mainMembers), wait(ANALYSIS + JOB + (2 * otherQueue) / 5), 'its analysis, its first job and two turns of the other');
    // The other workspace's sixth task: its own five, and all three of this workspace's, which
    // come first in each turn (10 before: its own four jobs alone).
    assert.equal(await create(t.other, otherMembers), wait(otherQueue + ANALYSIS + 2 * JOB), "its own queue and this workspace's three tasks");
  });

  it('counts a task that a worker holds whatever its workspace, and not once its lease ran out', async () => {
    // The other workspace's analysis is being run; its five jobs wait. This workspace's own
    // queue is its analysis and two jobs: three turns of the other's jobs come before its next.
    await t.sql.run("UPDATE tasks SET state = 'leased', lease_owner = 'elsewhere', lease_expires_at = ? WHERE workspace_id = ? AND kind = 'media.analyze'", Date.now() + 60_000, t.other.workspaceId);
    await sleep(ESTIMATE_REFRESH_MS + 50);
    const ownQueue = ANALYSIS + 2 * JOB;
    assert.equal(await create(t.main, mainMembers), wait(ANALYSIS + ownQueue + 3 * JOB), 'the running analysis, its own queue, three of the other');
    // A lease that ran out: the task waits to be claimed again, at its workspace's turns.
    await t.sql.run('UPDATE tasks SET lease_expires_at = ? WHERE workspace_id = ? AND kind = ?', Date.now() - 1, t.other.workspaceId, 'media.analyze');
    await sleep(ESTIMATE_REFRESH_MS + 50);
    const otherQueue = ANALYSIS + 5 * JOB;
    assert.equal(await create(t.main, mainMembers), wait(ownQueue + JOB + (4 * otherQueue) / 6), 'its own queue of four, four turns of the other six');
  });
});
