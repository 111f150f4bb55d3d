// Experiment: paired idle/busy windows during one long analysis (the analysis process is stopped
// with SIGSTOP for the idle windows). Env: ANALYSIS_NICE, IDLE=1 (SCHED_IDLE via chrt), PAIRS, WIN.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pcm16WavHeader } from '../../packages/analysis/src/index.ts';
import { loadConfig } from '../../packages/server/src/config.ts';
import { composeService } from '../../packages/server/src/compose.ts';
import { createEngine } from '../../packages/server/src/analysis/engine.adapter.ts';
import { newId, randomToken } from '../../packages/server/src/ids.ts';
import { descendants } from '../../packages/server/src/analysis/process-tree.ts';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const PAIRS = Number(process.env.PAIRS ?? 5);
const WIN = Number(process.env.WIN ?? 3);
function rps(url: string, apiKey: string, seconds: number): Promise<[number, number]> {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [AUTOCANNON, '-j', '-c', '16', '-d', String(seconds), '-H', `service-api-key=${apiKey}`, url], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => { const c = process.cpuUsage(c0); resolve([(JSON.parse(out.trim().split('\n').pop() ?? '{}') as { requests: { average: number } }).requests.average, (c.user + c.system) / 10 / (performance.now() - t0)]); });
  });
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-pairs-'));
const apiKey = `rk_${randomToken(40)}`;
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ROLE: 'all', SERVICE_API_KEY: apiKey, RATE_LIMIT_DEFAULT: '1000000000', INITIAL_CREDITS: '100000', WORKER_CONCURRENCY: '1', ANALYSIS_NICE: process.env.ANALYSIS_NICE ?? '10' });
const composed = await composeService(config, { engine: createEngine(), logger: false });
await composed.webhooks?.close();
const { services, app } = composed;
const { workspaceId } = await services.workspace.bootstrap({ serviceApiKey: apiKey, signingSecret: null });
const job = await services.stores.jobs.create({ workspaceId, type: 'matching', request: {}, cost: 1 });
const resultId = newId('mat');
await services.stores.jobs.succeed(job.id, { id: resultId, kind: 'matching', payloadJson: JSON.stringify({ id: resultId, markdown: '# bench\n'.repeat(200) }), evidenceJson: null }, { type: 'matching.completed', data: {}, webhook: undefined });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const url = `${base}/v1/matching/${resultId}`;
const SECONDS = 7200;
const mediaId = newId('med');
const file = path.join(dataDir, 'media', mediaId);
{
  const rate = 16000, n = 8 * rate, pat = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) { const t = i / rate; const k = Math.floor(t / 4); if (t - k * 4 > 3.5) continue; const f0 = k % 2 === 0 ? 120 : 210; let v = 0; for (let h = 1; h <= 6; h++) v += Math.sin(2 * Math.PI * f0 * h * t + h) / h; pat.writeInt16LE(Math.round(v * Math.max(0, Math.sin(2 * Math.PI * 4 * t)) * 6000), i * 2); }
  const reps = SECONDS / 8; const buf = Buffer.alloc(44 + pat.length * reps); pcm16WavHeader(pat.length * reps, rate).copy(buf, 0);
  for (let i = 0; i < reps; i++) pat.copy(buf, 44 + i * pat.length);
  writeFileSync(file, buf);
}
await services.stores.media.insert({ id: mediaId, workspaceId, kind: 'audio', filename: 'long.wav', contentType: 'audio/wav', sizeBytes: 44 + SECONDS * 32000, sha256: '0'.repeat(64), durationSec: SECONDS, label: null, storagePath: file, transcript: null, analysisStatus: 'pending' });
await rps(url, apiKey, 2); // warm-up
composed.worker?.start();
let child = 0;
for (let i = 0; i < 200 && !child; i++) { await new Promise((r) => setTimeout(r, 50)); child = descendants(process.pid)[0]?.pid ?? 0; }
await new Promise((r) => setTimeout(r, 1000));
if (process.env.IDLE === '1') execFileSync('chrt', ['-i', '-a', '-p', '0', String(child)]);
const cmd = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 80);
let idle = 0, busy = 0; const rows: string[] = [];
for (let p = 0; p < PAIRS; p++) {
  process.kill(child, 'SIGSTOP'); const [a, ca] = await rps(url, apiKey, WIN);
  process.kill(child, 'SIGCONT'); const [b, cb] = await rps(url, apiKey, WIN);
  idle += a; busy += b; rows.push(`${Math.round(a)}/${Math.round(b)} (cpu ${ca.toFixed(0)}/${cb.toFixed(0)})`);
}
const status = (await services.stores.media.load(mediaId))?.analysisStatus;
console.log(`nice=${process.env.ANALYSIS_NICE ?? 10} idle=${process.env.IDLE ?? 0} ratio ${(busy / idle).toFixed(2)} status-at-end ${status} load ${os.loadavg()[0]?.toFixed(1)} | ${rows.join(' ')} | ${cmd}`);
try { process.kill(child, 'SIGCONT'); } catch { /* */ }
await composed.close();
rmSync(dataDir, { recursive: true, force: true });
