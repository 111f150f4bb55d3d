// The job event bus through Redis pub/sub (REDIS_URL on PostgreSQL), against the real Redis of
// REDIS_URL (default redis://127.0.0.1:6379) and the real PostgreSQL: a missing one fails the
// tests (`.ci/run` starts both); RAPPORT_SKIP_SERVICES=1 skips them instead. Each "process" is a
// store and bus of its own (own pool, own Redis connections) on one schema. Redis delivers after
// the commit and may lose a message: these tests drop one on purpose and cut the connections, and
// check that subscribers catch up from the store within the catch-up bound.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { PG_URL, REDIS_URL, newWorkspace, postgresMissing, redisMissing } from '../store-backends.ts';
import { buildTestApp, tempDir, type TestApp } from '../helpers.ts';
import { SseReader } from '../sse-reader.ts';
import { openPgStores, type PgStores } from '../../src/compose/open-pg-stores.ts';
import { RedisJobEventBus } from '../../src/events/job-event-bus.redis.ts';
import type { JobEvent } from '../../src/jobs/jobs.store.ts';
import { randomToken } from '../../src/ids.ts';

const skip = (await postgresMissing()) ?? (await redisMissing());

interface Proc {
  stores: PgStores;
  bus: RedisJobEventBus;
  close(): Promise<void>;
}

async function openProc(schema: string, dataDir: string, catchUpMs: number): Promise<Proc> {
  const opened = await openPgStores(PG_URL, dataDir, () => undefined, undefined, { schema, max: 3 }, { url: REDIS_URL, catchUpMs });
  assert.ok(opened.bus instanceof RedisJobEventBus);
  return { stores: opened.stores as PgStores, bus: opened.bus, close: () => opened.stores.backend.close() };
}

/** The first value `subscribe` hands over that `accept` takes; rejects after `timeoutMs`. */
function next<T>(subscribe: (fn: (v: T) => void) => () => void, accept: (v: T) => boolean, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`nothing within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = subscribe((v) => {
      if (!accept(v)) return;
      clearTimeout(timer);
      off();
      resolve(v);
    });
  });
}

/** Ends one of a bus's Redis connections from the server side, as a network cut or a Redis restart would. */
async function cut(bus: RedisJobEventBus, which: 'pub' | 'sub'): Promise<void> {
  const conn = (bus as unknown as Record<'pub' | 'sub', Redis>)[which];
  const port = (conn as unknown as { stream: net.Socket }).stream.localPort;
  const admin = new Redis(REDIS_URL);
  try {
    assert.equal(await admin.client('KILL', 'ADDR', `127.0.0.1:${port}`, 'SKIPME', 'yes'), 1);
  } finally {
    admin.disconnect();
  }
}

async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
}

describe('job events across processes through Redis', { skip: skip ?? false }, () => {
  const schema = `r_${randomToken(12).toLowerCase()}`;
  const dataDir = tempDir();
  const CATCH_UP_MS = 400;
  let a: Proc;
  let b: Proc;
  before(async () => {
    a = await openProc(schema, dataDir, CATCH_UP_MS);
    b = await openProc(schema, dataDir, 60_000);
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("one process's job events reach another's subscribers, in order, once", async () => {
    const ws = await newWorkspace(a.stores, 10);
    const seen: (JobEvent | null)[] = [];
    const offWs = b.bus.subscribeWorkspace(ws, (e) => seen.push(e));
    const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    const ended = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (e) => e?.event === 'job.failed', 5000);
    await a.stores.jobs.start(job.id);
    await a.stores.jobs.progress(job.id, 'scoring', 0.5);
    await a.stores.jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: {}, webhook: undefined });
    assert.equal((await ended)?.job.status, 'failed');
    offWs();
    assert.deepEqual(seen.map((x) => x?.seq), [1, 2, 3, 4], 'every event once, in order (b waits 60 s before a catch-up read: these came by Redis)');
    assert.deepEqual(seen.map((x) => x?.id), [1, 2, 3, 4], "with the workspace's own event numbers");
  });

  it('sends no NOTIFY of job events (nobody listens to them), where a store without Redis does', async () => {
    const listener = new pg.Client({ connectionString: PG_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.channel));
    await listener.query(`LISTEN "${a.stores.db.channel}"`);
    const plain = await openPgStores(PG_URL, dataDir, () => undefined, undefined, { schema, max: 2 });
    try {
      const ws = await newWorkspace(a.stores, 10);
      const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await a.stores.jobs.start(job.id);
      await a.stores.jobs.progress(job.id, 'scoring', 0.5);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(heard, [], 'creation and progress through the Redis store');
      const other = await plain.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await plain.stores.jobs.start(other.id);
      for (let i = 0; i < 100 && heard.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(heard.length, 2, 'creation and start through a store without Redis');
    } finally {
      await plain.stores.backend.close();
      await listener.end();
    }
  });

  it('an event too large for a message is read from the store', async () => {
    const ws = await newWorkspace(a.stores, 10);
    const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    const big = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (e) => e?.event === 'job.failed', 5000);
    await a.stores.jobs.fail(job.id, { code: 'internal_error', message: 'y'.repeat(70_000) }, { type: 'report.failed', data: {}, webhook: undefined });
    assert.equal((await big)?.job.error?.message.length, 70_000);
  });

  it('lost publishes are caught up from the store once the subscriber was told nothing for the catch-up time', async () => {
    const ws = await newWorkspace(b.stores, 10);
    // b's publishes are dropped, as by a crash between commit and publish, or a dropped message.
    const sent = b.bus as unknown as { send: (m: string) => void };
    sent.send = () => undefined;
    try {
      const job = await b.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      // A stream on a: each wake reads the store after the last event it wrote.
      let last = 0;
      const wakes: (JobEvent | null)[] = [];
      const read = next<JobEvent | null>((fn) => a.bus.subscribeJob(job.id, (e) => {
        wakes.push(e);
        void a.stores.jobs.eventsAfter(job.id, last).then((events) => {
          for (const x of events) last = x.seq;
          if (last === 2) fn(e);
        });
      }), () => true, 10_000);
      await b.stores.jobs.start(job.id);
      await read;
      assert.ok(wakes.length > 0 && wakes.every((e) => e === null), 'woken to read the store, never told of an event');
    } finally {
      delete (sent as { send?: unknown }).send;
    }
  });

  it('after its subscribing connection is cut, the bus subscribes again and wakes every subscriber', async () => {
    const ws = await newWorkspace(a.stores, 10);
    const woken = next<JobEvent | null>((fn) => b.bus.subscribeWorkspace(ws, fn), (e) => e === null, 5000);
    await cut(b.bus, 'sub');
    assert.equal(await woken, null);
    const job = await a.stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    const started = next<JobEvent | null>((fn) => b.bus.subscribeJob(job.id, fn), (e) => e?.seq === 2, 5000);
    await a.stores.jobs.start(job.id);
    assert.equal((await started)?.job.status, 'running', 'events flow again');
  });

  it('after its publishing connection is cut, the bus tells every process to read the store once it is back', async () => {
    const ws = await newWorkspace(b.stores, 10);
    const woken = next<JobEvent | null>((fn) => b.bus.subscribeWorkspace(ws, fn), (e) => e === null, 5000);
    await cut(a.bus, 'pub');
    assert.equal(await woken, null);
  });
});

describe('an SSE stream on an API process with REDIS_URL', { skip: skip ?? false }, () => {
  const schema = `r_${randomToken(12).toLowerCase()}`;
  let t: TestApp;
  let worker: Proc;
  before(async () => {
    t = await buildTestApp({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL, EVENT_CATCH_UP_SEC: '60' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    worker = await openProc(schema, t.dataDir, 60_000);
  });
  after(async () => {
    await worker?.close();
    await t?.close();
    await dropSchema(schema);
  });

  it("shows another process's job progress and end as they happen", async () => {
    assert.ok(t.services.bus instanceof RedisJobEventBus, 'REDIS_URL selects the Redis bus');
    const job = await worker.stores.jobs.create({ workspaceId: t.main.workspaceId, type: 'report', request: {}, cost: 1 });
    const address = t.app.server.address() as net.AddressInfo;
    const res = await fetch(`http://127.0.0.1:${address.port}/v1/jobs/${job.id}/events`, { headers: { 'service-api-key': t.main.apiKey } });
    const reader = new SseReader(res.body as ReadableStream<Uint8Array>);
    try {
      assert.equal((await reader.next())?.retry, '2000');
      assert.equal((await reader.next())?.id, '1');
      await worker.stores.jobs.start(job.id);
      // 60 s before a catch-up read: a frame within 3 s came by Redis.
      assert.deepEqual(await reader.next(3000).then((f) => [f?.id, f?.event]), ['2', 'job.updated']);
      await worker.stores.jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: {}, webhook: undefined });
      assert.deepEqual(await reader.next(3000).then((f) => [f?.id, f?.event]), ['3', 'job.failed']);
    } finally {
      await reader.cancel();
    }
  });
});
