// `npm run bench`: the two throughput goals of issue 2, measured in one run, then the engine,
// the speaker metrics' growth with a transcript's cues (bench/speaker-metrics.ts), the growth of
// placing a transcript's cues on the diarization's segments (bench/segment-texts.ts), the
// transcript parser's on hostile cue text (bench/cue-text.ts),
// webhook, liveness (issue 20), /healthz under the request fuzzer (issue 20), dashboard (issue 22)
// and PostgreSQL (issue 21) benches when their files exist.
//
// 1. GET /v1/matching/:id (authenticated, rate-limit counters on, a stored result read from the
//    embedded store) against a bare fastify JSON route added to the same fastify instance and
//    answering the same JSON text from memory (bench/http-load.ts). Both are driven by
//    autocannon in a separate process, one after the other, and compared as requests per second.
// 2. POST /v1/matching/jobs for 30 s on the embedded store (ROLE=api: no worker, so the queue
//    only grows), each job written with its credit reservation, queue entry and first event in
//    one transaction. Requests per second, on average and in the slowest second.
//
// The server runs in this process; the load comes from a child process (autocannon), so the
// two do not share an event loop. BENCH_QUICK=1 shortens every phase (a smoke run).
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { grantCredits } from '../packages/server/src/credits/credits.ledger.ts';
import { storeDb } from '../packages/server/src/compose/stores.ts';
import { newId, nowIso } from '../packages/server/src/ids.ts';
import { benchRead, CONNECTIONS, load, setup, type LoadResult } from './http-load.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const CREATE_SEC = QUICK ? 5 : 30;
const GOAL_READ_RATIO = 0.6;
const GOAL_CREATES_PER_SEC = 1500;

async function benchCreate(): Promise<{ result: LoadResult; stored: number }> {
  const env = await setup('api');
  const { services, app } = env.composed;
  const db = storeDb(services.stores);
  await db.transaction((tx) => grantCredits(tx, env.workspaceId, 100_000_000));
  const mediaId = newId('med');
  await services.stores.media.insert({
    id: mediaId, workspaceId: env.workspaceId, kind: 'transcript', filename: 'talk.vtt', contentType: 'text/vtt', sizeBytes: 100, sha256: '0'.repeat(64),
    durationSec: 60, label: null, storagePath: path.join(env.dataDir, 'media', mediaId), transcript: null, analysisStatus: 'pending',
  });
  const entityId = newId('ent');
  await db.run("INSERT INTO entities (id, workspace_id, label, tags_json, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, nextval('rapport_seq'))", entityId, env.workspaceId, 'Alex', '[]', nowIso(), nowIso());
  const body = JSON.stringify({
    context: 'behavioral_compatibility',
    label: 'bench',
    target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } },
    group: [{ type: 'entity_id', entityId }],
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const result = await load(`${base}/v1/matching/jobs`, {
      seconds: CREATE_SEC,
      method: 'POST',
      body,
      headers: { 'service-api-key': env.apiKey, 'content-type': 'application/json' },
    });
    const stored = (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE type = 'matching'"))?.n ?? 0;
    return { result, stored };
  } finally {
    await env.composed.close();
    rmSync(env.dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function optionalBench(file: string, name: string): Promise<void> {
  const full = path.join(import.meta.dirname, file);
  if (!existsSync(full)) {
    console.log(`\n${name}: skipped (bench/${file} does not exist yet)`);
    return;
  }
  const mod = (await import(full)) as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== 'function') {
    console.log(`\n${name}: skipped (bench/${file} does not export ${name})`);
    return;
  }
  console.log(`\n${name} (bench/${file}):`);
  const out = (await (fn as () => Promise<unknown>)()) as unknown;
  if (out && typeof out === 'object') console.table(out);
}

async function main(): Promise<void> {
  console.log(`Rapport bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`autocannon in a child process, ${CONNECTIONS} connections${QUICK ? ', QUICK run' : ''}\n`);

  const read = await benchRead();
  const ratio = read.matching.rps / read.bare.rps;
  const create = await benchCreate();

  const rows = [
    ['bare fastify route, same JSON text from memory', read.bare, `${fmt(read.bytes)} B`],
    ['bare fastify route, {"hello":"world"}', read.bareSmall, '17 B'],
    ['GET /v1/matching/:id (key, rate limit, store)', read.matching, `${fmt(read.bytes)} B`],
    [`POST /v1/matching/jobs, ${CREATE_SEC} s, ROLE=api`, create.result, 'receipt'],
  ] as const;
  console.log('| measurement | req/s (mean) | req/s (slowest second) | p50 ms | p99 ms | non-2xx | errors | server CPU µs/req | body |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, r, body] of rows) {
    console.log(`| ${name} | ${fmt(r.rps)} | ${fmt(r.minRps)} | ${fmt(r.p50Ms, 1)} | ${fmt(r.p99Ms, 1)} | ${fmt(r.non2xx)} | ${fmt(r.errors)} | ${fmt(r.cpuUsPerReq)} | ${body} |`);
  }
  const ratioSmall = read.matching.rps / read.bareSmall.rps;
  // "Sustained for 30 s": the mean over the whole 30-second run (the slowest second is shown too).
  const createOk = create.result.rps >= GOAL_CREATES_PER_SEC;
  console.log('');
  console.log('| goal | measured | target | met |');
  console.log('|---|---:|---:|:---:|');
  console.log(`| GET /v1/matching/:id ÷ bare route (same document) | ${ratio.toFixed(2)} | ≥ ${GOAL_READ_RATIO} | ${ratio >= GOAL_READ_RATIO ? 'yes' : 'NO'} |`);
  console.log(`| GET /v1/matching/:id ÷ bare route ({"hello":"world"}) | ${ratioSmall.toFixed(2)} | (for reference) | |`);
  console.log(`| job creations/s sustained over ${CREATE_SEC} s (mean; slowest second) | ${fmt(create.result.rps)}; ${fmt(create.result.minRps)} | ≥ ${fmt(GOAL_CREATES_PER_SEC)} | ${createOk ? 'yes' : 'NO'} |`);
  console.log(`\njobs stored: ${fmt(create.stored)} (2xx answers: ${fmt(create.result.total - create.result.non2xx)})`);
  if (create.stored < create.result.total - create.result.non2xx) console.log('WARNING: fewer jobs stored than accepted');

  await optionalBench('engine.ts', 'benchEngine');
  await optionalBench('speaker-metrics.ts', 'benchSpeakerMetrics');
  await optionalBench('segment-texts.ts', 'benchSegmentTexts');
  await optionalBench('cue-text.ts', 'benchCueText');
  await optionalBench('speaker-model.ts', 'benchSpeakerModel');
  await optionalBench('webhooks.ts', 'benchWebhooks');
  await optionalBench('liveness.ts', 'benchLiveness');
  await optionalBench('fuzz-health.ts', 'benchFuzzHealth');
  await optionalBench('dashboard.ts', 'benchDashboard');
  await optionalBench('postgres.ts', 'benchPostgres');
}

await main();
