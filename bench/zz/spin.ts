// Experiment: does a CPU spinner at SCHED_IDLE / nice 19 slow the API? Paired stop/cont windows; steal time shown.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../packages/server/src/config.ts';
import { composeService } from '../../packages/server/src/compose.ts';
import { newId, randomToken } from '../../packages/server/src/ids.ts';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const stat = () => { const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number); return { idle: f[3]!, steal: f[7]!, total: f.reduce((a, b) => a + b, 0) }; };
function rps(url: string, apiKey: string, seconds: number): Promise<string> {
  const s0 = stat(); const c0 = process.cpuUsage(); const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [AUTOCANNON, '-j', '-c', '16', '-d', String(seconds), '-H', `service-api-key=${apiKey}`, url], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => { const s1 = stat(); const c = process.cpuUsage(c0); const tot = s1.total - s0.total;
      resolve(`${Math.round((JSON.parse(out.trim().split('\n').pop() ?? '{}') as { requests: { average: number } }).requests.average)}[api${((c.user + c.system) / 10 / (performance.now() - t0)).toFixed(0)} idle${((100 * (s1.idle - s0.idle)) / tot).toFixed(0)} st${((100 * (s1.steal - s0.steal)) / tot).toFixed(0)}]`); });
  });
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-spin-'));
const apiKey = `rk_${randomToken(40)}`;
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ROLE: 'api', SERVICE_API_KEY: apiKey, RATE_LIMIT_DEFAULT: '1000000000' });
const composed = await composeService(config, { engine: null, logger: false });
await composed.webhooks?.close();
const { services, app } = composed;
const { workspaceId } = await services.workspace.bootstrap({ serviceApiKey: apiKey, signingSecret: null });
const job = await services.stores.jobs.create({ workspaceId, type: 'matching', request: {}, cost: 1 });
const resultId = newId('mat');
await services.stores.jobs.succeed(job.id, { id: resultId, kind: 'matching', payloadJson: JSON.stringify({ id: resultId, markdown: '# bench\n'.repeat(200) }), evidenceJson: null }, { type: 'matching.completed', data: {}, webhook: undefined });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const url = `${base}/v1/matching/${resultId}`;
await rps(url, apiKey, 2);
for (const mode of (process.env.MODES ?? 'idle,nice19,nice0').split(',')) {
  const cmd = mode === 'idle' ? ['chrt', ['-i', '0', process.execPath, '-e', 'for(;;){}']] as const : ['nice', ['-n', mode === 'nice19' ? '19' : '0', process.execPath, '-e', 'for(;;){}']] as const;
  const spinner = spawn(cmd[0], [...cmd[1]], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const rows: string[] = [];
  for (let p = 0; p < Number(process.env.PAIRS ?? 4); p++) {
    spinner.kill('SIGSTOP'); const a = await rps(url, apiKey, 2);
    spinner.kill('SIGCONT'); const b = await rps(url, apiKey, 2);
    rows.push(`${a} / ${b}`);
  }
  spinner.kill('SIGKILL');
  console.log(`${mode} load ${os.loadavg()[0]?.toFixed(1)}: ${rows.join('  ')}`);
}
await composed.close();
rmSync(dataDir, { recursive: true, force: true });
