// Shared helpers of the server tests: an app composed exactly as in production on a temporary
// DATA_DIR (no engine, no logger), a bootstrapped workspace with known credentials, a second
// workspace for isolation checks, and fixtures written directly through the stores.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { composeService, type ComposedService } from '../src/compose.ts';
import type { Services } from '../src/services.ts';
import { embeddedDb, type EmbeddedStores } from '../src/store/backends.ts';
import type { AnalysisEngine } from '../src/analysis/engine.ts';
import type { MediaKind, MediaRecord } from '../src/files/media.store.ts';
import { newId, nowIso, randomToken } from '../src/ids.ts';

export interface Tenant {
  workspaceId: string;
  apiKey: string;
  signingSecret: string;
}

/** The services of a test app on the embedded store, whose database tests may look into. */
export type EmbeddedServices = Services & { stores: EmbeddedStores };

export interface TestApp {
  app: FastifyInstance;
  services: EmbeddedServices;
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
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const composed = await composeService(config, { engine: opts.engine ?? null, logger: false });
  if (!opts.webhooks) await composed.webhooks?.close();
  embeddedDb(composed.services.stores);
  const services = composed.services as EmbeddedServices;
  const boot = await services.workspace.bootstrap({ serviceApiKey, signingSecret });
  const second = await services.workspace.createWorkspace('other');
  await composed.app.ready();
  return {
    app: composed.app,
    services,
    composed,
    dataDir,
    main: { workspaceId: boot.workspaceId, apiKey: serviceApiKey, signingSecret },
    other: second,
    async close() {
      await composed.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
export function insertEntity(services: EmbeddedServices, workspaceId: string, label: string | null = null): string {
  const id = newId('ent');
  const now = nowIso();
  services.stores.db.run(
    'INSERT INTO entities (id, workspace_id, label, tags_json, voiceprint_json, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    id, workspaceId, label, '[]', null, now, now, services.stores.db.nextSeq(),
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
