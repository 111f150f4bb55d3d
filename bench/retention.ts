// `node bench/retention.ts`: the retention sweep (issue 20, finding 9) on a backlog, on the
// embedded store and, with DATABASE_URL (a schema of its own, dropped after), on PostgreSQL.
// RETENTION_BENCH_JOBS ended jobs (default 20,000) with 5 job events each, a webhook event, a
// delivered delivery and its attempt are written 40 days old (so 160,000 rows by default, the
// first sweep after an upgrade of a busy store), plus one live job. The sweep deletes them in
// batches of 500 with a turn of the event loop between; a 5 ms timer measures the longest gap of
// the event loop meanwhile. Prints rows per second and the longest gap.
import type { Stores } from '../packages/server/src/compose/stores.ts';
import { RetentionSweeper } from '../packages/server/src/retention/retention.ts';
import { generateApiKey, generateSigningSecret } from '../packages/server/src/workspace/workspace.store.ts';
import { onEachStore } from './each-store.ts';
import { watchLoopGap } from './loop-gap.ts';
import type { PgStores } from '../packages/server/src/compose/open-pg-stores.ts';

const JOBS = Number(process.env.RETENTION_BENCH_JOBS ?? 20_000);
const DAY = 24 * 3600 * 1000;

/** Runs SQL with `?` placeholders on either backend. */
function execOf(stores: Stores): (sql: string, ...p: (string | number)[]) => Promise<void> {
  if (stores.backend.kind === 'postgres') {
    const db = (stores as PgStores).db;
    return async (sql, ...p) => {
      let n = 0;
      await db.run(sql.replace(/\?/g, () => `$${++n}`), ...p);
    };
  }
  const db = (stores as Stores & { db: { run(sql: string, ...p: (string | number)[]): number } }).db;
  return async (sql, ...p) => void db.run(sql, ...p);
}

async function fill(stores: Stores): Promise<number> {
  const ws = (await stores.workspaces.createWorkspace({ name: 'bench', apiKey: generateApiKey(), signingSecret: generateSigningSecret(), initialCredits: 10 })).workspace.id;
  const exec = execOf(stores);
  const old = Date.now() - 40 * DAY;
  const oldIso = new Date(old).toISOString();
  // Written in bulk with SQL: the sweep, not the writing, is measured.
  const CHUNK = 500;
  for (let start = 0; start < JOBS; start += CHUNK) {
    const n = Math.min(CHUNK, JOBS - start);
    const ids = Array.from({ length: n }, (_, i) => `job_b${start + i}`);
    const values = (k: number, f: (id: string, i: number) => string) => ids.flatMap((id, i) => Array.from({ length: k }, (_, j) => f(id, i * k + j))).join(', ');
    await exec(`INSERT INTO jobs (id, workspace_id, type, status, stage, request_json, created_at, finished_at, seq) VALUES ${values(1, (id, i) => `('${id}', '${ws}', 'report', 'failed', 'queued', '{}', '${oldIso}', '${oldIso}', ${start + i + 1})`)}`);
    await exec(`INSERT INTO job_events (job_id, workspace_id, seq, ws_seq, event, data_json, created_at) VALUES ${values(5, (id, i) => `('${id}', '${ws}', ${(i % 5) + 1}, ${start * 5 + i + 1}, 'job.updated', '{}', ${old})`)}`);
    await exec(`INSERT INTO events (id, workspace_id, job_id, type, body, created_at) VALUES ${values(1, (id) => `('evt_${id}', '${ws}', '${id}', 'report.failed', '{}', '${oldIso}')`)}`);
    await exec(`INSERT INTO webhook_deliveries (id, workspace_id, event_id, job_id, url, headers_json, status, attempts, created_at, updated_at, seq) VALUES ${values(1, (id, i) => `('dlv_${id}', '${ws}', 'evt_${id}', '${id}', 'https://x.example/h', '{}', 'succeeded', 1, '${oldIso}', '${oldIso}', ${start + i + 1})`)}`);
    await exec(`INSERT INTO delivery_attempts (delivery_id, attempt, at, status_code, duration_ms, outcome) VALUES ${values(1, (id) => `('dlv_${id}', 1, '${oldIso}', 200, 5, 'succeeded')`)}`);
  }
  await exec('INSERT INTO job_event_counters (workspace_id, last_seq) VALUES (?, ?)', ws, JOBS * 5);
  const live = await stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
  await stores.jobs.start(live.id);
  await exec('UPDATE job_events SET created_at = ? WHERE job_id = ?', old, live.id);
  return JOBS * 8;
}

async function measure(name: string, stores: Stores): Promise<void> {
  const rows = await fill(stores);
  const sweeper = new RetentionSweeper(stores.retention, { retentionDays: 30 });
  const stopWatch = watchLoopGap();
  const started = performance.now();
  const swept = await sweeper.sweep();
  const sec = (performance.now() - started) / 1000;
  const maxGap = stopWatch();
  await sweeper.close();
  const deleted = swept.jobEvents + swept.events + swept.deliveries * 2;
  console.log(`${name}: ${deleted} of ${rows} rows deleted (job events ${swept.jobEvents}, events ${swept.events}, deliveries ${swept.deliveries} with their attempts) in ${sec.toFixed(2)} s, ${Math.round(deleted / sec)} rows/s; longest event-loop gap ${maxGap.toFixed(1)} ms (5 ms timer)`);
}

await onEachStore('rapport-retention-', measure);
