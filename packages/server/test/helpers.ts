// Shared helpers of the server tests: an app composed exactly as in production on a temporary
// DATA_DIR (no engine, no logger), a bootstrapped workspace with known credentials, a second
// workspace for isolation checks, and fixtures written directly through the stores. With
// TEST_STORE=postgres the app runs on PostgreSQL (TEST_DATABASE_URL, a fresh schema per app,
// dropped at close): the API suite then checks that the API answers alike on both backends.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { composeService, type ComposedService } from '../src/compose/compose.ts';
import type { Services } from '../src/compose/services.ts';
import { storeDb, type StoresWithDb, type Stores } from '../src/compose/stores.ts';
import type { PgStores } from '../src/compose/open-pg-stores.ts';
import { SqlJobStore, type JobStore } from '../src/jobs/jobs.store.ts';
import pg from 'pg';
import type { AnalysisEngine } from '../src/analysis/engine.ts';
import { SqlMediaStore, type MediaKind, type MediaRecord, type MediaStore } from '../src/files/media.store.ts';
import { newId, nowIso, randomToken } from '../src/ids.ts';

export interface Tenant {
  workspaceId: string;
  apiKey: string;
  signingSecret: string;
}

/** The services of a test app on the embedded store, whose database tests may look into. */
export type EmbeddedServices = Services & { stores: StoresWithDb };

export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

type SqlParam = string | number | null;

/** SQL on the store of either backend, written with `?` placeholders, for tests that look inside. */
export interface TestSql {
  get<T>(sql: string, ...params: SqlParam[]): Promise<T | undefined>;
  all<T>(sql: string, ...params: SqlParam[]): Promise<T[]>;
  run(sql: string, ...params: SqlParam[]): Promise<number>;
  /** The first column of the first row, as a number (0 when none). */
  count(sql: string, ...params: SqlParam[]): Promise<number>;
}

/** `?` placeholders to PostgreSQL's `$n`. */
export function dollars(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function sqlOf(stores: Stores): TestSql {
  const first = (row: unknown) => Number(Object.values((row ?? {}) as Record<string, unknown>)[0] ?? 0);
  const db = storeDb(stores);
  return {
    get: (sql, ...p) => db.get(sql, ...p),
    all: (sql, ...p) => db.all(sql, ...p),
    run: (sql, ...p) => db.run(sql, ...p),
    count: async (sql, ...p) => first(await db.get(sql, ...p)),
  };
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** SQL on this app's store, whichever backend it runs on. */
  sql: TestSql;
  composed: ComposedService;
  dataDir: string;
  /** The bootstrapped (default) workspace, admin key. */
  main: Tenant;
  /** A second workspace, for isolation checks. */
  other: Tenant;
  close(): Promise<void>;
}

export function tempDir(prefix = 'rapport-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function testKey(): string {
  return `rk_${randomToken(40)}`;
}

export function testSecret(): string {
  return `whsec_${randomToken(40)}`;
}

/**
 * Builds the service on a fresh DATA_DIR; `env` overrides configuration (e.g. RATE_LIMIT_DEFAULT).
 * The webhook dispatcher is stopped unless `webhooks: true`, so that fixture jobs naming a webhook
 * (https://hooks.example.com/...) never make a request off the machine. `engine`: the analysis
 * engine the worker runs (none unless given).
 */
export async function buildTestApp(env: Record<string, string> = {}, opts: { webhooks?: boolean; engine?: AnalysisEngine | null } = {}): Promise<TestApp> {
  const dataDir = tempDir();
  const serviceApiKey = testKey();
  const signingSecret = testSecret();
  const onPg = process.env.TEST_STORE === 'postgres';
  const schema = `a_${randomToken(12).toLowerCase()}`;
  const pgEnv = onPg ? { DATABASE_URL: TEST_PG_URL, DATABASE_SCHEMA: schema } : {};
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...pgEnv, ...env });
  const composed = await composeService(config, { engine: opts.engine ?? null, logger: false });
  if (!opts.webhooks) await composed.webhooks?.close();
  const services = composed.services;
  const boot = await services.workspace.bootstrap({ serviceApiKey, signingSecret });
  const second = await services.workspace.createWorkspace('other');
  await composed.app.ready();
  return {
    app: composed.app,
    services,
    sql: sqlOf(services.stores),
    composed,
    dataDir,
    main: { workspaceId: boot.workspaceId, apiKey: serviceApiKey, signingSecret },
    other: second,
    async close() {
      await composed.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (onPg) await dropSchema(schema);
    },
  };
}

export async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** `app.inject` with the key of `tenant` (or none when null). */
export function call(t: TestApp, tenant: Tenant | null, opts: InjectOptions): Promise<LightMyRequestResponse> {
  const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
  if (tenant) headers['service-api-key'] = tenant.apiKey;
  return t.app.inject({ ...opts, headers });
}

/** Inserts a media row directly (no file is needed for validation and reference checks). */
export async function insertMedia(services: Services, workspaceId: string, opts: { kind?: MediaKind; label?: string | null } = {}): Promise<MediaRecord> {
  const id = newId('med');
  return services.stores.media.insert({
    id,
    workspaceId,
    kind: opts.kind ?? 'audio',
    filename: `${id}.wav`,
    contentType: 'audio/wav',
    sizeBytes: 1000,
    sha256: '0'.repeat(64),
    durationSec: 30,
    label: opts.label ?? null,
    storagePath: path.join(services.config.dataDir, 'media', id),
    transcript: null,
    analysisStatus: 'pending',
  });
}

/** Inserts an entity row directly (entities are normally created by media analysis). */
export async function insertEntity(services: Services, workspaceId: string, label: string | null = null): Promise<string> {
  const id = newId('ent');
  const now = nowIso();
  await sqlOf(services.stores).run(
    "INSERT INTO entities (id, workspace_id, label, tags_json, voiceprint_json, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, nextval('rapport_seq'))",
    id, workspaceId, label, '[]', null, now, now,
  );
  return id;
}

/** A valid matching request over the given media and entity. */
export function matchingBody(mediaId: string, entityId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } },
    group: [{ type: 'entity_id', entityId }],
    context: 'behavioral_compatibility',
    ...extra,
  };
}

/**
 * A finished matching job with a stored result, written through the job store as a worker
 * would (a test fixture, not an engine result): answers the job id and the result id.
 */
export async function insertSucceededMatching(services: Services, workspaceId: string, mediaId: string, entityId: string): Promise<{ jobId: string; resultId: string; payload: Record<string, unknown> }> {
  const request = matchingBody(mediaId, entityId);
  const job = await services.stores.jobs.create({ workspaceId, type: 'matching', request, cost: 1 });
  const resultId = newId('mat');
  const payload = {
    id: resultId,
    jobId: job.id,
    context: 'behavioral_compatibility',
    createdAt: nowIso(),
    output: { template: 'matching' },
    target: { source: request.target, resolvedLabel: null },
    group: [{ source: { type: 'entity_id', entityId }, entityId, resolvedLabel: null }],
    json: {
      schemaVersion: 1,
      title: 'Fixture',
      summary: 'A stored fixture result.',
      sections: [{ section_title: 'Overview', section_content: { type: 'text', content: 'fixture' } }],
    },
    markdown: '# Fixture\n',
  };
  await services.stores.jobs.succeed(
    job.id,
    { id: resultId, kind: 'matching', payloadJson: JSON.stringify(payload), evidenceJson: JSON.stringify({ members: [] }) },
    { type: 'matching.completed', data: { jobId: job.id, matchingId: resultId, status: 'succeeded' }, webhook: undefined },
  );
  return { jobId: job.id, resultId, payload };
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

export interface ErrorJson {
  error: { code: string; message: string; requestId: string; details?: { path: string; message: string }[]; retryAfter?: number };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Waits until `fn` answers truthy, polling; throws after `timeoutMs`. */
export async function waitFor<T>(fn: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Milliseconds left in the current UTC minute (rate-limit window). */
export function msLeftInMinute(now = Date.now()): number {
  return 60_000 - (now % 60_000);
}

/**
 * The job store of another process on the same store (a worker elsewhere): on the embedded store
 * a second store object that publishes nowhere; on PostgreSQL a store on its own pool.
 */
export async function otherProcessJobs(stores: Stores): Promise<{ jobs: JobStore; close(): Promise<void> }> {
  if (stores.backend.kind === 'postgres') {
    const own = (stores as PgStores).db;
    const { PgDb } = await import('../src/store/pg.ts');
    const { pgJobEngine } = await import('../src/compose/open-pg-stores.ts');
    const db = await PgDb.open(own.url, own.schema === 'public' ? { max: 2 } : { schema: own.schema, max: 2 });
    return { jobs: new SqlJobStore(db, () => undefined, pgJobEngine(db)), close: () => db.close() };
  }
  return { jobs: new SqlJobStore(storeDb(stores), () => undefined), close: async () => undefined };
}

/** The media store of another process on the same store (a worker elsewhere), publishing nowhere. */
export async function otherProcessMedia(stores: Stores): Promise<{ media: MediaStore; close(): Promise<void> }> {
  if (stores.backend.kind === 'postgres') {
    const own = (stores as PgStores).db;
    const { PgDb } = await import('../src/store/pg.ts');
    const db = await PgDb.open(own.url, own.schema === 'public' ? { max: 2 } : { schema: own.schema, max: 2 });
    return { media: new SqlMediaStore(db), close: () => db.close() };
  }
  return { media: new SqlMediaStore(storeDb(stores)), close: async () => undefined };
}
