// Webhook delivery benchmark (issue 4): signed deliveries per second to a local receiver (goal
// >= 500/s), and the time from a job's terminal state to its first delivery attempt (goal: median
// under 100 ms). Runs a real service on a temporary DATA_DIR and a real HTTP receiver on loopback,
// in its own process, that checks every signature. `bench/run.ts` calls benchWebhooks(); run this
// file directly to print the numbers alone.
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../packages/server/src/config.ts';
import { runService, type RunningService } from '../packages/server/src/serve.ts';

const API_KEY = `rk_${'b'.repeat(40)}`;
const SECRET = 'whsec_bench_0123456789abcdefghij';
const BACKLOG = 2000;
const LATENCY_SAMPLES = 50;

interface Arrival {
  eventId: string;
  timestamp: string;
  at: number;
}

function validSignature(header: string | undefined, body: Buffer): boolean {
  if (!header) return false;
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  const expected = createHmac('sha256', SECRET).update(`${t}.`).update(body).digest();
  return parts.filter((p) => p.startsWith('v1=')).some((p) => {
    const got = Buffer.from(p.slice(3), 'hex');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

/** The receiver itself, in its own process (`--receiver`): one line per request on stdout. */
async function receiverProcess(): Promise<void> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks);
      if (!validSignature(req.headers['service-signature'] as string | undefined, body)) {
        res.writeHead(401).end();
        process.stdout.write('X\n');
        return;
      }
      const event = JSON.parse(body.toString('utf8')) as { id: string; timestamp: string };
      res.writeHead(200).end();
      process.stdout.write(`E ${event.id} ${event.timestamp} ${at}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
  process.once('SIGTERM', () => process.exit(0));
}

/**
 * Starts the receiver in a child process, so that the service being measured has its process to
 * itself (as it would in production) and the receiver's own work is not counted against it.
 */
async function startReceiver(onEvent: (a: Arrival) => void): Promise<{ url: string; invalid: () => number; close: () => Promise<void> }> {
  let invalid = 0;
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--receiver'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
    lines.on('line', (line) => {
      const [kind, a, b, c] = line.split(' ');
      if (kind === 'PORT') resolve(Number(a));
      else if (kind === 'X') invalid++;
      else if (kind === 'E') onEvent({ eventId: a as string, timestamp: b as string, at: Number(c) });
    });
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    invalid: () => invalid,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function start(dataDir: string, role: 'api' | 'all'): Promise<RunningService> {
  return runService(
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ROLE: role,
      SERVICE_API_KEY: API_KEY,
      SIGNING_SECRET: SECRET,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      INITIAL_CREDITS: '1000000',
      RATE_LIMIT_DEFAULT: '1000000',
    }),
    { logger: false },
  );
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : ((s[Math.floor((s.length - 1) / 2)] as number) + (s[Math.ceil((s.length - 1) / 2)] as number)) / 2;
};
const percentile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
};

export async function benchWebhooks(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-webhooks-'));
  const arrivals = new Map<string, Arrival>();
  let waiter: (() => void) | null = null;
  const receiver = await startReceiver((a) => {
    if (!arrivals.has(a.eventId)) arrivals.set(a.eventId, a);
    waiter?.();
  });
  const until = (n: number, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${arrivals.size} of ${n} events arrived within ${timeoutMs} ms`)), timeoutMs);
      waiter = () => {
        if (arrivals.size < n) return;
        clearTimeout(timer);
        waiter = null;
        resolve();
      };
      waiter();
    });

  try {
    // 1. A backlog of terminal jobs, each with its event and delivery, written by an `api`
    //    process (no dispatcher), through the real terminal-state path of the job store.
    const writer = await start(dataDir, 'api');
    const jobs = writer.composed.services.stores.jobs;
    for (let i = 0; i < BACKLOG; i++) {
      const job = await jobs.create({ workspaceId: writer.workspaceId, type: 'report', request: {}, cost: 0 });
      await jobs.fail(job.id, { code: 'internal_error', message: 'bench' }, {
        type: 'report.failed',
        data: { jobId: job.id, status: 'failed', error: { code: 'internal_error', message: 'bench' } },
        webhook: { url: receiver.url },
      });
    }
    await writer.close();

    // 2. Throughput: a full service drains the backlog into the receiver.
    const t0 = performance.now();
    const service = await start(dataDir, 'all');
    const started = performance.now();
    await until(BACKLOG, 60_000);
    // From the start of the service (its dispatcher starts before runService returns), so the
    // start-up time counts against the rate.
    const drainSec = (performance.now() - t0) / 1000;
    const startSec = (started - t0) / 1000;
    const times = [...arrivals.values()].map((a) => a.at);
    const spanSec = (Math.max(...times) - Math.min(...times)) / 1000;
    const perDestination = service.composed.webhooks?.options.perDestination ?? 0;

    // 3. Latency: one job at a time over the API (create, then cancel: its terminal state), from
    //    the event's `timestamp` (the terminal state) to the request's arrival at the receiver.
    const latencies: number[] = [];
    const api = (method: string, p: string, body?: unknown) =>
      fetch(`${service.url}${p}`, {
        method,
        headers: { 'service-api-key': API_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const job = await service.composed.services.stores.jobs.create({ workspaceId: service.workspaceId, type: 'report', request: { webhook: { url: receiver.url } }, cost: 0 });
      const res = await api('POST', `/v1/jobs/${job.id}/cancel`);
      await res.arrayBuffer();
      await until(BACKLOG + i + 1, 10_000);
      const arrival = [...arrivals.values()].at(-1) as Arrival;
      latencies.push(arrival.at - Date.parse(arrival.timestamp));
    }
    await service.close();

    return {
      webhook_deliveries: BACKLOG,
      webhook_deliveries_per_sec: Math.round(BACKLOG / drainSec),
      webhook_steady_deliveries_per_sec: Math.round((BACKLOG - 1) / spanSec),
      webhook_service_start_sec: Math.round(startSec * 100) / 100,
      webhook_per_destination_concurrency: perDestination,
      webhook_invalid_signatures: receiver.invalid(),
      webhook_first_attempt_median_ms: Math.round(median(latencies) * 10) / 10,
      webhook_first_attempt_p90_ms: percentile(latencies, 0.9),
      webhook_first_attempt_max_ms: Math.max(...latencies),
      webhook_latency_samples: latencies.length,
    };
  } finally {
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--receiver')) await receiverProcess();
  else console.log(JSON.stringify(await benchWebhooks(), null, 2));
}
