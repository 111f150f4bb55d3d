// Job creation under load on PostgreSQL (issue 21, the creation rate): creations asked for while
// a batch is being written share the next transaction, one statement per workspace, and keep
// their order; a workspace that cannot pay for a whole batch still gets the jobs its balance
// covers; a workspace whose row is held delays no other; statements with parameters are
// prepared once per connection, and prepared again when a migration changed their tables. The
// batch outcome is checked on both backends.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BACKENDS, newWorkspace, PG_URL, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { PgDb } from '../../src/store/pg.ts';
import { InsufficientCredits } from '../../src/credits/credits.ledger.ts';
import type { PgStores } from '../../src/compose/open-pg-stores.ts';
import type { Job } from '../../src/jobs/jobs.schemas.ts';

const pgSkip = await postgresMissing();
const turn = () => new Promise((r) => setImmediate(r));

for (const backend of BACKENDS) {
  describe(`job creation in batches (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    before(async () => {
      t = await backend.open();
    });
    after(() => t?.close());

    it('a batch over two workspaces, one of which cannot pay for all: its balance covers the first, the other is written whole', async () => {
      const poor = await newWorkspace(t.stores, 3);
      const rich = await newWorkspace(t.stores, 100);
      const asked = Array.from({ length: 10 }, (_, i) => ({ ws: i % 2 === 0 ? poor : rich, i }));
      const outcomes = await Promise.allSettled(asked.map(({ ws, i }) => t.stores.jobs.create({ workspaceId: ws, type: 'report', label: `j${i}`, request: { i }, cost: 1 })));
      const poorOutcomes = outcomes.filter((_, i) => i % 2 === 0);
      assert.deepEqual(poorOutcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
      assert.ok(poorOutcomes.every((o) => o.status === 'fulfilled' || o.reason instanceof InsufficientCredits));
      assert.ok(outcomes.filter((_, i) => i % 2 === 1).every((o) => o.status === 'fulfilled'));
      assert.deepEqual(await t.stores.credits.balance(poor).then((b) => [b?.balance, b?.reserved]), [3, 3]);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', poor), 3);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM tasks WHERE workspace_id = ?', poor), 3);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM job_events WHERE workspace_id = ?', rich), 5);
      assert.equal(await t.count("SELECT COUNT(*) AS n FROM credit_transactions WHERE workspace_id = ? AND kind = 'reserve'", rich), 5);
      // The refused batch took no event ids: the workspace's counter moved by the jobs written.
      assert.deepEqual((await t.stores.jobs.workspaceEventsAfter(poor, 0)).map((e) => e.id), [1, 2, 3]);
      assert.equal(await t.stores.jobs.latestWorkspaceEventId(poor), 3);
      // Newest first, in the order they were asked for.
      const listed = (await t.stores.jobs.list(rich, { limit: 10 })).data.map((j) => j.label);
      assert.deepEqual(listed, ['j9', 'j7', 'j5', 'j3', 'j1']);
    });
  });
}

describe('job creation in batches: PostgreSQL transactions', { skip: pgSkip ?? false }, () => {
  let t: OpenedTestStores;
  let db: PgDb;
  before(async () => {
    t = await (BACKENDS.find((b) => b.name === 'postgres') as (typeof BACKENDS)[number]).open();
    db = (t.stores as PgStores).db;
  });
  after(() => t?.close());

  it('creations asked for while a batch is written wait for it and share the next transaction, in order', async () => {
    const ws = await newWorkspace(t.stores, 1000);
    const created: Promise<Job>[] = [];
    for (let i = 0; i < 40; i++) {
      created.push(t.stores.jobs.create({ workspaceId: ws, type: 'report', label: `j${i}`, request: { i }, cost: 1 }));
      await turn();
    }
    const jobs = await Promise.all(created);
    // The transaction that wrote each row is its xmin: one per event-loop turn before, a few now.
    const transactions = Number((await db.get<{ n: number }>('SELECT COUNT(DISTINCT xmin::text) AS n FROM jobs WHERE workspace_id = $1', ws))?.n);
    assert.ok(transactions <= 8, `40 creations over 40 turns took ${transactions} transactions`);
    const events = await t.stores.jobs.workspaceEventsAfter(ws, 0);
    assert.deepEqual(events.map((e) => e.jobId), jobs.map((j) => j.id), 'event ids follow the order of the creations');
    // Each batch raised the workspace's event counter by its size: ids 1..40, none skipped, and
    // the next event (written through the counter alone) takes 41.
    assert.deepEqual(events.map((e) => e.id), jobs.map((_, i) => i + 1));
    assert.equal(await t.stores.jobs.latestWorkspaceEventId(ws), 40);
    await t.stores.jobs.start((jobs[0] as Job).id);
    assert.deepEqual((await t.stores.jobs.workspaceEventsAfter(ws, 40)).map((e) => e.id), [41]);
    assert.deepEqual((await t.stores.jobs.list(ws, { limit: 40 })).data.map((j) => j.id), jobs.map((j) => j.id).reverse());
    assert.equal((await t.stores.credits.balance(ws))?.reserved, 40);
  });

  it("a workspace whose row is held delays no other workspace's creations", async () => {
    const held = await newWorkspace(t.stores, 10);
    const free = await newWorkspace(t.stores, 10);
    let release = () => undefined as void;
    const released = new Promise<void>((r) => (release = r));
    let locked = () => undefined as void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = db.transaction(async (tx) => {
      await tx.get('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', held);
      locked();
      await released;
    });
    await isLocked;
    const stuck = t.stores.jobs.create({ workspaceId: held, type: 'report', request: {}, cost: 1 });
    const other = t.stores.jobs.create({ workspaceId: free, type: 'report', request: {}, cost: 1 });
    const first = await Promise.race([other.then(() => 'other'), stuck.then(() => 'stuck'), new Promise((r) => setTimeout(r, 3000, 'neither'))]);
    release();
    await holder;
    assert.equal(first, 'other');
    assert.equal((await stuck).status, 'queued');
  });

  it('statements with parameters are prepared once per connection', async () => {
    const n = await db.transaction(async (tx) => {
      await tx.get('SELECT $1::int AS v', 1);
      await tx.get('SELECT $1::int AS v', 2);
      return (await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_prepared_statements WHERE statement = 'SELECT $1::int AS v'"))?.n;
    });
    assert.equal(Number(n), 1);
  });

  it("sessions are named after their process, so that a lock or a transaction can be traced to it", async () => {
    const name = await db.get<{ name: string }>('SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()');
    assert.equal(name?.name, `rapport-${process.pid}`);
  });
});

describe('prepared statements across a migration', { skip: pgSkip ?? false }, () => {
  it('a table that gains a column under a prepared SELECT * is read again, alone and in a transaction', async () => {
    const schema = `t_prep_${process.pid}`;
    const db = await PgDb.open(PG_URL, { schema, max: 1 });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await db.run('CREATE TABLE prep (id INTEGER PRIMARY KEY)');
      await db.run('INSERT INTO prep (id) VALUES ($1)', 1);
      const read = 'SELECT * FROM prep WHERE id = $1';
      assert.deepEqual(await db.get(read, 1), { id: 1 });
      await admin.query(`ALTER TABLE ${schema}.prep ADD COLUMN note TEXT DEFAULT 'x'`);
      assert.deepEqual(await db.get(read, 1), { id: 1, note: 'x' });
      await admin.query(`ALTER TABLE ${schema}.prep ADD COLUMN more TEXT DEFAULT 'y'`);
      assert.deepEqual(await db.transaction((tx) => tx.get(read, 1)), { id: 1, note: 'x', more: 'y' });
    } finally {
      await db.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
