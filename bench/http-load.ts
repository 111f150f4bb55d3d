// The HTTP load of the benches (autocannon in a child process, so that the server and the load do
// not share an event loop) and the read-path bench of issue 2: GET /v1/matching/:id
// (authenticated, rate-limit counters on, a stored result read from the store) against a bare
// fastify JSON route added to the same fastify instance and answering the same JSON text from
// memory, one after the other, as requests per second. `bench/run.ts` runs it on the embedded
// store and `bench/postgres.ts` on PostgreSQL (the environment given to `setup`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../packages/server/src/config.ts';
import { composeService, type ComposedService } from '../packages/server/src/compose/compose.ts';
import { newId, nowIso, randomToken } from '../packages/server/src/ids.ts';

const QUICK = process.env.BENCH_QUICK === '1';
export const READ_SEC = QUICK ? 3 : 10;
export const CONNECTIONS = 32;

export interface LoadResult {
  /** Server CPU time (user + system, this process) per answered request, microseconds. */
  cpuUsPerReq: number;
  rps: number;
  minRps: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** Runs autocannon in a child process and answers its summary. */
export function load(url: string, opts: { seconds: number; method?: string; body?: string; headers: Record<string, string>; warmupSec?: number }): Promise<LoadResult> {
  const args = [AUTOCANNON, '-j', '-c', String(CONNECTIONS), '-d', String(opts.seconds), '-m', opts.method ?? 'GET'];
  for (const [k, v] of Object.entries(opts.headers)) args.push('-H', `${k}=${v}`);
  if (opts.body) args.push('-b', opts.body);
  if (opts.warmupSec) args.push('-W', '[', '-c', String(CONNECTIONS), '-d', String(opts.warmupSec), ']');
  args.push(url);
  return new Promise((resolve, reject) => {
    let cpu0: NodeJS.CpuUsage | null = null;
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // CPU is counted from the end of the warm-up (or the start) to the end of the run.
    const warm = setTimeout(() => (cpu0 = process.cpuUsage()), (opts.warmupSec ?? 0) * 1000 + 300);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      clearTimeout(warm);
      const cpu = process.cpuUsage(cpu0 ?? undefined);
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err}`));
      // With a warm-up, autocannon prints the warm-up summary first: the last line is the run.
      const last = out.trim().split('\n').pop() ?? '{}';
      const r = JSON.parse(last) as {
        requests: { average: number; min: number; total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        '2xx': number;
      };
      resolve({ cpuUsPerReq: (cpu.user + cpu.system) / Math.max(1, r.requests.total), rps: r.requests.average, minRps: r.requests.min, p50Ms: r.latency.p50, p99Ms: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

/** Two equal-length runs as one. */
function combine(a: LoadResult, b: LoadResult): LoadResult {
  const mean = (x: number, y: number) => (x + y) / 2;
  return {
    cpuUsPerReq: (a.cpuUsPerReq * a.total + b.cpuUsPerReq * b.total) / Math.max(1, a.total + b.total),
    rps: mean(a.rps, b.rps),
    minRps: Math.min(a.minRps, b.minRps),
    p50Ms: mean(a.p50Ms, b.p50Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    total: a.total + b.total,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
  };
}

/** A matching payload of a realistic size (a five-member document with its Markdown). */
function fixturePayload(resultId: string, jobId: string, mediaId: string, entityId: string): Record<string, unknown> {
  const card = (i: number) => ({ type: 'card', title: `Dimension ${i}`, icon: 'pulse', content: `Score ${60 + i} of 100: measured over 14 minutes of shared speech.` });
  const member = { source: { type: 'entity_id', entityId }, entityId, resolvedLabel: 'Alex' };
  return {
    id: resultId,
    jobId,
    context: 'behavioral_compatibility',
    createdAt: nowIso(),
    label: 'Quarterly team fit',
    output: { template: 'matching' },
    target: { source: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } }, entityId, resolvedLabel: 'Sam' },
    group: [member, member, member, member, member],
    json: {
      schemaVersion: 1,
      title: 'Sam and the team',
      summary: 'Overall fit 72 of 100; strongest in turn-taking, weakest in pace.',
      sections: [
        { section_title: 'Overview', section_content: [{ type: 'grid', columns: 3, items: [1, 2, 3, 4, 5, 6].map(card) }, { type: 'illustration', variant: 'connection' }] },
        ...[1, 2, 3, 4, 5].map((i) => ({ section_title: `Member ${i}`, section_content: [{ type: 'text', content: 'They share a similar pace and overlap rarely; questions are answered within a second.'.repeat(2) }, { type: 'illustration', variant: 'conversation' }] })),
        { section_title: 'Growth opportunities', section_content: [{ type: 'text', content: 'Slow down in long answers.' }, { type: 'illustration', variant: 'growth' }] },
      ],
    },
    markdown: `# Sam and the team\n\n${'Overall fit 72 of 100; strongest in turn-taking, weakest in pace.\n\n'.repeat(12)}`,
  };
}

export async function setup(role: 'all' | 'api', env: Record<string, string> = {}): Promise<{ composed: ComposedService; dataDir: string; apiKey: string; workspaceId: string; url: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-'));
  const apiKey = `rk_${randomToken(40)}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ROLE: role,
    SERVICE_API_KEY: apiKey,
    SIGNING_SECRET: `whsec_${randomToken(40)}`,
    // The counters stay on; the limits are only set high enough not to refuse the load.
    RATE_LIMIT_DEFAULT: '1000000000',
    RATE_LIMIT_JOB_STATUS: '1000000000',
    ...env,
  });
  const composed = await composeService(config, { engine: null, logger: false });
  await composed.webhooks?.close();
  const { workspaceId } = await composed.services.workspace.bootstrap({ serviceApiKey: apiKey, signingSecret: config.signingSecret });
  return { composed, dataDir, apiKey, workspaceId, url: '' };
}

export async function benchRead(env: Record<string, string> = {}): Promise<{ bare: LoadResult; bareSmall: LoadResult; matching: LoadResult; bytes: number }> {
  const s = await setup('api', env);
  const { services, app } = s.composed;
  const mediaId = newId('med');
  const entityId = newId('ent');
  const job = await services.stores.jobs.create({ workspaceId: s.workspaceId, type: 'matching', request: {}, cost: 1 });
  const resultId = newId('mat');
  const payload = fixturePayload(resultId, job.id, mediaId, entityId);
  await services.stores.jobs.succeed(job.id, { id: resultId, kind: 'matching', payloadJson: JSON.stringify(payload), evidenceJson: null }, { type: 'matching.completed', data: {}, webhook: undefined });
  // The bare routes, for this bench only: the same JSON text from memory (what the real route
  // sends, without the key, the rate limit and the store), and fastify's classic tiny object.
  const text = JSON.stringify(payload);
  app.get('/bench/bare', async (_req, reply) => reply.type('application/json; charset=utf-8').send(text));
  app.get('/bench/bare-small', async () => ({ hello: 'world' }));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { 'service-api-key': s.apiKey };
  const check = await fetch(`${base}/v1/matching/${resultId}`, { headers });
  if (check.status !== 200) throw new Error(`GET /v1/matching/:id answered ${check.status}`);
  const bytes = (await check.text()).length;
  try {
    // Two rounds in opposite order, so that a drift of the machine's load weighs on both sides.
    const half = Math.max(2, Math.round(READ_SEC / 2));
    const bare1 = await load(`${base}/bench/bare`, { seconds: half, headers, warmupSec: 2 });
    const matching1 = await load(`${base}/v1/matching/${resultId}`, { seconds: half, headers, warmupSec: 2 });
    const matching2 = await load(`${base}/v1/matching/${resultId}`, { seconds: half, headers });
    const bare2 = await load(`${base}/bench/bare`, { seconds: half, headers });
    const bareSmall = await load(`${base}/bench/bare-small`, { seconds: half, headers, warmupSec: 1 });
    return { bare: combine(bare1, bare2), bareSmall, matching: combine(matching1, matching2), bytes };
  } finally {
    await s.composed.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
}

