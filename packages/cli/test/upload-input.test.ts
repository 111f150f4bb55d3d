// Issue 40 item 9: what the CLI says about input it cannot send, and while it waits. A missing
// local file named with its path and reason, before anything is uploaded (it used to be a raw
// `ENOENT … stat` after the earlier files had gone); a retry's wait said in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { retryMessage } from '../src/retry-message.ts';

const BIN = fileURLToPath(new URL('../bin/rapport.js', import.meta.url));

function rapport(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // No service listens on this port: a file check that reached the network would say so.
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', RAPPORT_API_KEY: 'rk_test', RAPPORT_BASE_URL: 'http://127.0.0.1:9' }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('upload refuses a missing file or a folder by its path and reason, before any upload (exit 2)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rapport-upload-input-'));
  const real = join(dir, 'real.wav');
  await writeFile(real, 'RIFF');
  const missing = join(dir, 'missing.wav');
  const r = await rapport(['upload', real, missing]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`cannot upload ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no such file`));
  assert.doesNotMatch(r.stderr, /ENOENT|stat/);
  assert.doesNotMatch(r.stderr, /connect|ECONNREFUSED/, 'nothing was sent: the check comes first');
  const folder = join(dir, 'folder');
  await mkdir(folder);
  const f = await rapport(['upload', folder]);
  assert.equal(f.code, 2, f.stderr);
  assert.match(f.stderr, /cannot upload .*folder: it is a folder, give a file/);
});

test('a retry says why it waits and for how long', () => {
  assert.equal(retryMessage({ method: 'POST', path: '/v1/files', attempt: 1, waitSec: 11.2, status: 429, reason: 'rate_limited' }), "waiting 12 s before trying again (attempt 2): the service's rate limit was reached (429)");
  assert.match(retryMessage({ method: 'GET', path: '/v1/jobs/x', attempt: 2, waitSec: 0.4, status: null, reason: 'network' }), /^waiting 400 ms before trying again \(attempt 3\): the service did not answer$/);
});
