// The published form of the SDK: `tsc -p tsconfig.build.json` into a temporary folder, then the
// emitted ESM (with its .d.ts) is loaded as plain JavaScript and used against a local server, by
// this Node and, when the machine has one on PATH, by an older Node (the SDK promises Node 20+).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const PKG = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

function run(file: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { cwd: PKG, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr })));
}

const SMOKE = `
import { createServer } from 'node:http';
import { Rapport, NotFoundError } from './index.js';
const srv = createServer((req, res) => {
  if (req.method === 'POST') { let n = 0; req.on('data', (c) => (n += c.length)); req.on('end', () => { res.writeHead(201, { 'content-type': 'application/json' }); res.end(JSON.stringify({ id: 'med_1', n })); }); return; }
  if (req.url === '/v1/jobs/job_1/events') { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end('id: 1\\nevent: job.succeeded\\ndata: {"id":"job_1","status":"succeeded"}\\n\\n'); return; }
  res.writeHead(404, { 'content-type': 'application/json' }); res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'nope', requestId: 'r1' } }));
}).listen(0, '127.0.0.1', async () => {
  const c = new Rapport({ apiKey: 'k', baseUrl: 'http://127.0.0.1:' + srv.address().port });
  const m = await c.files.upload(new Uint8Array(300000), { filename: 'a.wav' });
  const events = [];
  for await (const ev of c.jobs.stream('job_1')) events.push(ev.event);
  const nf = await c.files.retrieve('x').catch((e) => e instanceof NotFoundError && e.requestId);
  console.log(JSON.stringify({ ok: m.n > 300000, events, nf }));
  srv.close();
});
`;

let out: string;
before(async () => {
  out = await mkdtemp(join(tmpdir(), 'rapport-sdk-build-'));
});
after(() => rm(out, { recursive: true, force: true }));

test('the build emits ESM and declarations that work without TypeScript', { timeout: 180_000 }, async (t) => {
  const build = await run(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', out]);
  assert.equal(build.code, 0, build.out);
  assert.ok(existsSync(join(out, 'index.js')) && existsSync(join(out, 'index.d.ts')));
  assert.deepEqual(readdirSync(out, { recursive: true }).filter((f) => String(f).includes('.test.')), [], 'tests are not shipped');
  await writeFile(join(out, 'package.json'), '{ "type": "module" }');
  await writeFile(join(out, 'smoke.mjs'), SMOKE);
  const expected = { ok: true, events: ['job.succeeded'], nf: 'r1' };
  const here = await run(process.execPath, [join(out, 'smoke.mjs')]);
  assert.deepEqual(JSON.parse(here.out), expected);
  // Another Node on PATH (in this project, npm scripts put Node 24 first; a bare shell may not).
  const other = await run('node', ['-p', 'process.versions.node']);
  const major = Number(other.out.split('.')[0]);
  if (other.code !== 0 || major === Number(process.versions.node.split('.')[0])) return t.diagnostic('no other Node on PATH');
  const older = await run('node', [join(out, 'smoke.mjs')]);
  assert.deepEqual(JSON.parse(older.out), expected, `Node ${other.out.trim()}`);
  t.diagnostic(`also ran on Node ${other.out.trim()}`);
});
