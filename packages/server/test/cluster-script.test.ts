// `npm run cluster` (scripts/cluster.ts): two API processes and two workers on PostgreSQL behind
// one port. Through that port, connections reach the API processes in turn, and a key created
// through one connection is listed through the others; SIGTERM stops every process.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PG_URL, postgresMissing } from './store-backends.ts';
import { dropSchema, tempDir, testKey } from './helpers.ts';
import { randomToken } from '../src/ids.ts';

const pgSkip = await postgresMissing();
const SCRIPT = path.join(import.meta.dirname, '..', '..', '..', 'scripts', 'cluster.ts');

describe('npm run cluster', { skip: pgSkip ?? false, timeout: 120_000 }, () => {
  const schema = `n_${randomToken(12).toLowerCase()}`;
  const dir = tempDir('rapport-cluster-script-');
  after(async () => {
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API of 2 processes on one port and stops them all', async () => {
    const apiKey = testKey();
    const child = spawn(process.execPath, [SCRIPT], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, MEDIA_DIR: dir, DATA_DIR: dir, SERVICE_API_KEY: apiKey, SIGNING_SECRET: 'whsec_clusterscripttest0001', PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    let url = '';
    for await (const line of lines) {
      const m = /^Rapport cluster on (http:\/\/\S+?):? /.exec(line);
      if (m?.[1]) {
        url = m[1];
        break;
      }
    }
    assert.ok(url, 'the cluster printed its address');
    const headers = { 'service-api-key': apiKey, connection: 'close' };
    const ready = await Promise.all([1, 2, 3, 4].map(() => fetch(`${url}/readyz`, { headers }).then((r) => r.status)));
    assert.deepEqual(ready, [200, 200, 200, 200]);
    const created = await fetch(`${url}/v1/workspace/keys`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"through-the-cluster"}' });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    for (let i = 0; i < 3; i++) {
      const listed = (await (await fetch(`${url}/v1/workspace/keys`, { headers })).json()) as { data: { id: string }[] };
      assert.ok(listed.data.some((k) => k.id === id), 'every API process sees the key');
    }
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });
});
