// At least once across crashes, with real processes: the service runs as a child process, is
// killed with SIGKILL while deliveries are in flight (the receiver holds its answers) and others
// are pending behind the per-destination limit, and is started again on the same DATA_DIR. Every
// event must then reach the receiver with a valid signature and a 200 answer.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { verifyWebhook } from '../../../client/src/webhooks.ts';
import { Receiver, TEST_API_KEY, TEST_SECRET } from '../../test/fixtures/webhook-receiver.ts';
import type { DeliveryRecord } from './webhooks.store.ts';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/webhook-service.ts', import.meta.url));
const JOBS = 20;

interface Child {
  proc: ChildProcess;
  url: string;
  mediaId: string;
}

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

async function startChild(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, [FIXTURE], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SERVICE_API_KEY: TEST_API_KEY,
      SIGNING_SECRET: TEST_SECRET,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_DEFAULT: '100000',
      FIXTURE_LEASE_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    rl.once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`the service exited with ${code} before it was ready`)));
  });
  const ready = JSON.parse(line) as { url: string; mediaId: string };
  return { proc, url: ready.url, mediaId: ready.mediaId };
}

async function api(child: Child, method: string, p: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${child.url}${p}`, {
    method,
    headers: { 'service-api-key': TEST_API_KEY, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
}

describe('webhook delivery across a crash (kill -9)', () => {
  it('delivers every event at least once after a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-crash-'));
    const receiver = await new Receiver().listen();
    let holding = true;
    const held: http.ServerResponse[] = [];
    const acknowledged = new Set<string>();
    receiver.on('/hook', (res, _n, req) => {
      if (holding) {
        held.push(res);
        return;
      }
      acknowledged.add(String(req.headers['service-event-id']));
      res.writeHead(200).end();
    });
    try {
      const first = await startChild(dataDir);
      const target = { type: 'media_target', mediaId: first.mediaId, selector: { strategy: 'speaker_index', speaker_index: 0 } };
      const member = { type: 'media_target', mediaId: first.mediaId, selector: { strategy: 'speaker_index', speaker_index: 1 } };
      for (let i = 0; i < JOBS; i++) {
        const created = await api(first, 'POST', '/v1/matching/jobs', { context: 'behavioral_compatibility', target, group: [member], webhook: { url: receiver.url('/hook') } });
        assert.equal(created.status, 202);
        await api(first, 'POST', `/v1/jobs/${(created.json as { jobId: string }).jobId}/cancel`);
      }
      // Some attempts are in flight (held), the others wait behind the per-destination limit.
      await receiver.until(() => held.length >= 8, 5000, 'held attempts');
      const before = (await api(first, 'GET', '/v1/webhooks/deliveries?limit=100')).json as { data: DeliveryRecord[] };
      assert.equal(before.data.length, JOBS);
      assert.ok(before.data.every((d) => d.status === 'pending'));
      assert.ok(before.data.some((d) => d.attemptCount === 0), 'some deliveries not attempted yet');
      assert.ok(before.data.some((d) => d.attemptCount === 1), 'some deliveries in flight');

      first.proc.kill('SIGKILL');
      await new Promise((resolve) => first.proc.once('exit', resolve));
      holding = false;
      for (const res of held) res.destroy();

      const second = await startChild(dataDir);
      const expected = new Set(before.data.map((d) => d.eventId));
      await receiver.until(() => [...expected].every((id) => acknowledged.has(id)), 15_000, 'every event acknowledged');

      for (const r of receiver.at('/hook')) {
        const event = await verifyWebhook(r.body, r.headers['service-signature'], TEST_SECRET);
        assert.ok(expected.has(event.id));
      }
      const deadline = Date.now() + 5000;
      let after: DeliveryRecord[] = [];
      while (Date.now() < deadline) {
        after = ((await api(second, 'GET', '/v1/webhooks/deliveries?limit=100')).json as { data: DeliveryRecord[] }).data;
        if (after.every((d) => d.status === 'succeeded')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(after.filter((d) => d.status === 'succeeded').length, JOBS);
      // An attempt cut short by the crash shows in the log as interrupted, then the retry succeeded.
      const interrupted = before.data.find((d) => d.attemptCount === 1);
      const log = (await api(second, 'GET', `/v1/webhooks/deliveries/${interrupted?.id}`)).json as DeliveryRecord;
      assert.equal(log.attempts?.[0]?.outcome, 'interrupted');
      assert.equal(log.attempts?.at(-1)?.outcome, 'succeeded');

      second.proc.kill('SIGTERM');
      await new Promise((resolve) => second.proc.once('exit', resolve));
    } finally {
      await receiver.close();
    }
  });
});
