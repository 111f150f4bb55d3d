// Workers on other processes learn of a queued task at once on PostgreSQL (queue/task-signal.pg.ts):
// two openings of one schema stand for two processes. A task announced by one reaches the other's
// watcher (not its own); a burst of announcements is a few NOTIFYs; a LISTEN connection that is
// cut comes back and wakes its worker for what it may have missed; and a worker whose poll is a minute away
// runs a task that another process queued as soon as it is announced.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import type { PgStores } from '../../src/compose/open-pg-stores.ts';
import { PgTaskSignal, taskChannel } from '../../src/queue/task-signal.pg.ts';
import { enqueueTask } from '../../src/queue/queue.store.ts';
import { Worker, type TaskHandler } from '../../src/queue/worker.ts';
import { waitFor } from '../helpers.ts';

const pgSkip = await postgresMissing();
const postgres = BACKENDS.find((b) => b.name === 'postgres');

describe('the task signal between processes (postgres)', { skip: pgSkip ?? false }, () => {
  let a: OpenedTestStores;
  let b: OpenedTestStores;
  const signals: PgTaskSignal[] = [];
  const signal = (t: OpenedTestStores) => {
    const s = new PgTaskSignal((t.stores as PgStores).db);
    signals.push(s);
    return s;
  };
  before(async () => {
    a = await (postgres as NonNullable<typeof postgres>).open();
    b = await (postgres as NonNullable<typeof postgres>).open(a);
  });
  after(async () => {
    for (const s of signals) await s.close();
    await b?.close();
    await a?.close();
  });

  it("reaches the other process's watcher, not its own, and a burst is a few notifications", async () => {
    const [inA, inB] = [signal(a), signal(b)];
    let heardA = 0;
    let heardB = 0;
    inA.watch(() => heardA++);
    inB.watch(() => heardB++);
    // Each watcher wakes once when its LISTEN takes effect (for what it may have missed).
    await waitFor(async () => (heardA >= 1 && heardB >= 1 ? true : null), 5000, 'both LISTENs');
    [heardA, heardB] = [0, 0];
    inB.announce();
    await waitFor(async () => (heardA === 1 ? true : null), 5000, "A hearing B's announcement");
    for (let i = 0; i < 200; i++) inB.announce();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(heardA >= 2 && heardA <= 3, `200 announcements at once reached A as ${heardA - 1} notifications`);
    assert.equal(heardB, 0, 'its own announcements do not wake B');
  });

  it('a cut LISTEN connection comes back, wakes its worker, and hears later announcements', async () => {
    const [inA, inB] = [signal(a), signal(b)];
    let heard = 0;
    inA.watch(() => heard++);
    await waitFor(async () => (heard >= 1 ? true : null), 5000, 'LISTEN');
    const db = (b.stores as PgStores).db;
    const channel = taskChannel(db.schema);
    const listeners = async () => (await db.all<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE query = $1', `LISTEN "${channel}"`)).map((r) => r.pid);
    const before = await listeners();
    assert.ok(before.length >= 1);
    for (const pid of before) await db.run('SELECT pg_terminate_backend($1)', pid);
    heard = 0;
    await waitFor(async () => (heard >= 1 ? true : null), 5000, 'the catch-up wake after reconnecting');
    heard = 0;
    inB.announce();
    await waitFor(async () => (heard >= 1 ? true : null), 5000, 'an announcement after reconnecting');
  });

  it("starts a task queued by another process at once, with the worker's next poll a minute away", async () => {
    const ws = await newWorkspace(a.stores);
    const ran: string[] = [];
    const handler: TaskHandler = {
      run: async (task) => {
        ran.push(task.refId);
        return { kind: 'done' };
      },
      giveUp: async () => undefined,
    };
    const worker = new Worker(a.stores.queue, { 'job.run': handler, 'media.analyze': handler }, { concurrency: 1, leaseMs: 30_000, pollMs: 60_000 });
    const inA = signal(a);
    inA.watch(worker.wake);
    worker.start();
    try {
      // The worker's first claim found nothing; it now waits for its poll, or a signal.
      await new Promise((r) => setTimeout(r, 300));
      await enqueueTask((b.stores as PgStores).db, 'job.run', 'job_signalled', ws);
      signal(b).announce();
      await waitFor(async () => (ran.includes('job_signalled') ? true : null), 10_000, 'the task to run');
    } finally {
      await worker.close();
    }
  });

  it('closed while its LISTEN is under way, it leaves no connection open (one would keep the process alive)', async () => {
    const db = (a.stores as PgStores).db;
    const listening = async () => Number((await db.get<{ n: number }>("SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE query = $1", `LISTEN "${taskChannel(db.schema)}"`))?.n ?? 0);
    const before = await listening();
    // Closed at every moment of its first milliseconds: before, during and after connecting and LISTEN.
    for (let ms = 0; ms < 40; ms++) {
      const s = new PgTaskSignal(db);
      s.watch(() => undefined);
      await new Promise((r) => setTimeout(r, ms / 2));
      await s.close();
    }
    await waitFor(async () => (await listening()) === before, 5000, 'the LISTEN connections of closed signals to end');
  });
});
