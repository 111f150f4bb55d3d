// The job event bus across processes: on PostgreSQL, a job event committed by one process (its
// own pool, as a worker on another host would have) reaches the subscribers of another process
// through LISTEN/NOTIFY, without polling; a lost LISTEN connection is re-made and every
// subscriber told to read the store, which stays the source of truth. A process LISTENs only
// while something subscribes (and a while after), and tells its subscribers to read the store
// when it starts to. The embedded store's bus reaches its own process only, which is why its
// streams also poll the store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BACKENDS, PG_URL, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import type { JobEvent } from '../../src/jobs/jobs.store.ts';
import type { PgStores } from '../../src/compose/open-pg-stores.ts';
import { PgJobEventBus } from '../../src/events/job-event-bus.pg.ts';
import type { JobEventBus } from '../../src/events/job-event-bus.ts';

const pgSkip = await postgresMissing();

/** The first value `subscribe` hands over that `accept` takes; a failure, not a hang, after 10 s. */
function next<T>(subscribe: (fn: (v: T) => void) => () => void, accept: (v: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error('nothing arrived within 10 s'));
    }, 10_000);
    const off = subscribe((v) => {
      if (!accept(v)) return;
      clearTimeout(timer);
      off();
      resolve(v);
    });
  });
}

/** Resolves once the bus's LISTEN is (or is no longer) in force. */
async function listens(bus: JobEventBus, wanted = true): Promise<void> {
  const until = Date.now() + 5000;
  while ((bus as PgJobEventBus).listens !== wanted) {
    if (Date.now() > until) throw new Error(`the bus did not ${wanted ? 'start' : 'stop'} listening`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const postgres = BACKENDS.find((b) => b.name === 'postgres');
describe('job events across processes (postgres)', { skip: pgSkip ?? false }, () => {
  let a: OpenedTestStores;
  let b: OpenedTestStores;
  before(async () => {
    a = await (postgres as NonNullable<typeof postgres>).open();
    b = await (postgres as NonNullable<typeof postgres>).open(a);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it("one process's job events reach another's subscribers, in order, once", async () => {
    assert.equal(b.bus.crossProcess, true);
    const ws = await newWorkspace(a.stores, 10);
    const seen: (JobEvent | null)[] = [];
    const offWs = b.bus.subscribeWorkspace(ws, (e) => seen.push(e));
    await listens(b.bus);
    // (Starting to listen woke the subscriber once, with null: read the store.)
    seen.length = 0;
    const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    const started = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (e) => e?.seq === 3);
    await a.stores.jobs.start(job.id);
    await a.stores.jobs.progress(job.id, 'scoring', 0.5);
    const e = await started;
    assert.deepEqual([e?.event, e?.job.stage, e?.job.progress], ['job.updated', 'scoring', 0.5]);
    const ended = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (x) => x?.event === 'job.failed');
    await a.stores.jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: {}, webhook: undefined });
    assert.equal((await ended)?.job.status, 'failed');
    offWs();
    assert.deepEqual(seen.map((x) => x?.seq), [1, 2, 3, 4], 'every event once, in order');
    assert.deepEqual(seen.map((x) => x?.id), [1, 2, 3, 4], "announced with the workspace's own event numbers");
    assert.equal(a.events.length >= 4, true, 'the writing process published its own events locally');
  });

  it('an event too large for a notification is read from the store', async () => {
    const ws = await newWorkspace(a.stores, 10);
    const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', label: 'x'.repeat(10), request: {}, cost: 1 });
    const big = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (e) => e?.event === 'job.failed');
    await listens(b.bus);
    await a.stores.jobs.fail(job.id, { code: 'internal_error', message: 'y'.repeat(9000) }, { type: 'report.failed', data: {}, webhook: undefined });
    const received = await big;
    assert.equal(received?.job.error?.message.length, 9000);
    assert.equal(received?.id, (await a.stores.jobs.eventsAfter(job.id, 0)).at(-1)?.id, 'read by its workspace and number');
  });

  it('an announcement nobody in the process listens to is not decoded nor read from the store', async () => {
    const ws = await newWorkspace(a.stores, 10);
    // Still listening a while after the last subscriber left: announcements arrive for nobody.
    b.bus.subscribeWorkspace(ws, () => undefined)();
    await listens(b.bus);
    const db = (b.stores as PgStores).db as unknown as { get: (sql: string, ...params: unknown[]) => Promise<unknown> };
    const get = db.get.bind(db);
    let reads = 0;
    db.get = (sql, ...params) => {
      if (sql.includes('FROM job_events WHERE workspace_id = $1 AND ws_seq')) reads++;
      return get(sql, ...params);
    };
    const listener = (b.bus as unknown as { client: pg.Client }).client;
    // Added after the bus's own listener: called once the bus has handled the same notification.
    const received = new Promise<void>((resolve) => {
      const seen = (n: pg.Notification) => {
        if (!n.payload?.includes(`"w":${JSON.stringify(ws)},"i":`)) return;
        listener.off('notification', seen);
        resolve();
      };
      listener.on('notification', seen);
    });
    try {
      const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await a.stores.jobs.fail(job.id, { code: 'internal_error', message: 'y'.repeat(9000) }, { type: 'report.failed', data: {}, webhook: undefined });
      await received;
      assert.equal(reads, 0);
    } finally {
      delete (db as { get?: unknown }).get;
    }
  });

  it('after its LISTEN connection is lost, the bus listens again and wakes every subscriber to read the store', async () => {
    const ws = await newWorkspace(a.stores, 10);
    const off = b.bus.subscribeWorkspace(ws, () => undefined);
    await listens(b.bus);
    const woken = next<JobEvent | null>((fn) => b.bus.subscribeWorkspace(ws, fn), (e) => e === null);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const channel = (b.stores as PgStores).db.channel;
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1', [`LISTEN "${channel}"`]);
      assert.ok((killed.rowCount ?? 0) >= 1);
    } finally {
      await admin.end();
    }
    assert.equal(await woken, null);
    const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    const after = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (e) => e?.seq === 2);
    await a.stores.jobs.start(job.id);
    assert.equal((await after)?.job.status, 'running', 'events flow again');
    off();
  });

  it('a process listens only while something subscribes: from the first subscription, which is told to read the store, until a while after the last', async () => {
    const bus = await PgJobEventBus.start((b.stores as PgStores).db, undefined, { unlistenAfterMs: 50 });
    try {
      const ws = await newWorkspace(a.stores, 10);
      assert.equal(bus.listens, false, 'nothing subscribes: no LISTEN, no session woken at each commit');
      const first = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      const seen: (JobEvent | null)[] = [];
      const off = bus.subscribeWorkspace(ws, (e) => seen.push(e));
      await listens(bus);
      // The creation before LISTEN was announced to nobody here: the subscriber is told to read the store.
      assert.deepEqual(seen, [null]);
      // Seen by the workspace subscription taken before the creation: a job subscription taken
      // after it could miss a notification delivered before the creation's answer (it did, 1 run in 15).
      const second = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      const announced = () => (seen as (JobEvent | null)[]).some((e) => e?.jobId === second.id);
      for (let i = 0; i < 250 && !announced(); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(announced(), 'the second creation was announced');
      assert.notEqual(first.id, second.id);
      off();
      assert.equal(bus.listens, true, 'still listening just after the last subscriber left');
      await listens(bus, false);
      const channels = await (bus as unknown as { client: pg.Client }).client.query('SELECT pg_listening_channels() AS c');
      assert.equal(channels.rowCount, 0);
    } finally {
      await bus.close();
    }
  });
});

describe('job events across processes (sqlite)', () => {
  it('the embedded bus reaches its own process only (streams poll the store besides)', async () => {
    const sqlite = BACKENDS.find((x) => x.name === 'sqlite');
    const t = await (sqlite as NonNullable<typeof sqlite>).open();
    try {
      assert.equal(t.bus.crossProcess, false);
    } finally {
      await t.close();
    }
  });
});
