// The store backends under test: the same suite runs on each (one suite, two backends). The
// embedded store opens on a temporary DATA_DIR; PostgreSQL (TEST_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test) on a fresh schema per opening, dropped at close, so
// test files running in parallel never see each other's rows. A PostgreSQL that does not
// answer is a failure, not a skip: `.ci/run` starts one. Set RAPPORT_SKIP_SERVICES=1 to skip
// such tests on a machine without it (the reason is printed).
import { rmSync } from 'node:fs';
import net from 'node:net';
import { loadConfig } from '../src/config.ts';
import { openStores } from '../src/compose/open-stores.ts';
import { storeDb, type Stores } from '../src/compose/stores.ts';
import { openPgStores, type PgStores } from '../src/compose/open-pg-stores.ts';
import type { JobEventBus } from '../src/events/job-event-bus.ts';
import type { JobEvent } from '../src/jobs/jobs.store.ts';
import { randomToken } from '../src/ids.ts';
import { generateApiKey, generateSigningSecret } from '../src/workspace/workspace.store.ts';
import { dropSchema, tempDir } from './helpers.ts';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface OpenedTestStores {
  stores: Stores;
  bus: JobEventBus;
  /** Every job event committed by these stores, in order. */
  events: JobEvent[];
  /** A count by SQL written with `?` placeholders (run on either backend). */
  count(sql: string, ...params: (string | number)[]): Promise<number>;
  /** The rows of a query written with `?` placeholders (run on either backend). */
  rows<T>(sql: string, ...params: (string | number)[]): Promise<T[]>;
  /** Any statement, `?` placeholders, on either backend (to set up a state the API cannot reach). */
  exec(sql: string, ...params: (string | number | null)[]): Promise<void>;
  close(): Promise<void>;
}

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  /** Opens a fresh store; `shareWith` opens a second process's view of the same one (same schema or file). */
  open(shareWith?: OpenedTestStores): Promise<OpenedTestStores>;
}

/** `?` placeholders to PostgreSQL's `$n`. */
export function dollars(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function answers(url: string, defaultPort: number): Promise<string | null> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) }, () => {
      s.end();
      resolve(null);
    });
    s.on('error', (err) => resolve(err.message));
    s.setTimeout(1000, () => {
      s.destroy();
      resolve('timed out');
    });
  });
}

/** Null when PostgreSQL answers; the reason to skip when it does not and skipping was asked for; throws otherwise. */
export async function postgresMissing(): Promise<string | null> {
  return serviceMissing('PostgreSQL', PG_URL, 5432);
}

/** The same for the Redis of REDIS_URL (default redis://127.0.0.1:6379). */
export async function redisMissing(): Promise<string | null> {
  return serviceMissing('Redis', REDIS_URL, 6379);
}

async function serviceMissing(name: string, url: string, defaultPort: number): Promise<string | null> {
  const problem = await answers(url, defaultPort);
  if (problem === null) return null;
  const reason = `no ${name} at ${url} (${problem})`;
  if (process.env.RAPPORT_SKIP_SERVICES === '1') return reason;
  throw new Error(`${reason}: start it (.ci/run does), or set RAPPORT_SKIP_SERVICES=1 to skip these tests`);
}

const sqlite: TestBackend = {
  name: 'sqlite',
  async open(shareWith) {
    const dataDir = shareWith ? (shareWith as OpenedTestStores & { dataDir: string }).dataDir : tempDir();
    const events: JobEvent[] = [];
    const { stores, bus } = await openStores(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), (_ws, e) => events.push(e));
    const db = storeDb(stores);
    return {
      dataDir,
      stores,
      bus,
      events,
      count: async (sql, ...params) => Number(Object.values((await db.get<Record<string, number>>(sql, ...params)) ?? {})[0] ?? 0),
      rows: (sql, ...params) => db.all(sql, ...params),
      exec: async (sql, ...params) => void (await db.run(sql, ...params)),
      async close() {
        await stores.backend.close();
        if (!shareWith) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: TestBackend = {
  name: 'postgres',
  async open(shareWith) {
    const shared = shareWith as (OpenedTestStores & { schema: string; dataDir: string }) | undefined;
    const schema = shared?.schema ?? `t_${randomToken(12).toLowerCase()}`;
    const dataDir = shared?.dataDir ?? tempDir();
    const events: JobEvent[] = [];
    const opened = await openPgStores(PG_URL, dataDir, (_ws, e) => events.push(e), undefined, { schema, max: 5 });
    const db = (opened.stores as PgStores).db;
    return {
      schema,
      dataDir,
      stores: opened.stores,
      bus: opened.bus,
      events,
      count: async (sql, ...params) => Number(Object.values((await db.get<Record<string, number>>(dollars(sql), ...params)) ?? {})[0] ?? 0),
      rows: (sql, ...params) => db.all(dollars(sql), ...params),
      exec: async (sql, ...params) => void (await db.run(dollars(sql), ...params)),
      async close() {
        await opened.stores.backend.close();
        if (shared) return;
        await dropSchema(schema);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

export const BACKENDS: TestBackend[] = [sqlite, postgres];

/** A new workspace with `initialCredits`; answers its id. */
export async function newWorkspace(stores: Stores, initialCredits = 100): Promise<string> {
  return (await stores.workspaces.createWorkspace({ name: 'w', apiKey: generateApiKey(), signingSecret: generateSigningSecret(), initialCredits })).workspace.id;
}
