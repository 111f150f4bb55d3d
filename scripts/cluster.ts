// `npm run cluster`: the distributed deployment on this machine with one command. Two API
// processes (ROLE=api) and two workers (ROLE=worker) on the PostgreSQL of DATABASE_URL, behind
// one port (PORT, default 8080) that hands each connection to the next API process in turn; the
// media folder (MEDIA_DIR, default ./data/cluster) is shared by all four. SERVICE_API_KEY and
// SIGNING_SECRET are generated and printed when unset. Ctrl-C stops every process.
// See docs/deploy.md for the same processes on several hosts.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

const API_PROCESSES = 2;
const WORKERS = 2;
const MAIN = path.join(import.meta.dirname, '..', 'packages', 'server', 'src', 'main.ts');

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('npm run cluster needs DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/rapport; create the database first)');
  process.exit(78);
}
const token = () => randomBytes(30).toString('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 40).padEnd(40, '0');
const generated = !process.env.SERVICE_API_KEY;
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  DATABASE_URL: databaseUrl,
  MEDIA_DIR: path.resolve(process.env.MEDIA_DIR ?? path.join('data', 'cluster')),
  DATA_DIR: path.resolve(process.env.DATA_DIR ?? path.join('data', 'cluster')),
  SERVICE_API_KEY: process.env.SERVICE_API_KEY ?? `rk_${token()}`,
  SIGNING_SECRET: process.env.SIGNING_SECRET ?? `whsec_${token()}`,
  HOST: '127.0.0.1',
  PORT: '0',
};

const children: ChildProcess[] = [];

/** Starts one process of the cluster; resolves with its URL ('' for a worker) once it serves. */
async function start(role: 'api' | 'worker'): Promise<string> {
  const child = spawn(process.execPath, [MAIN], { env: { ...env, ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const m = /^Rapport is listening on (\S*)/.exec(line);
    if (m) {
      lines.on('line', (l) => console.log(`[${role} ${child.pid}] ${l}`));
      return m[1] ?? '';
    }
  }
  throw new Error(`the ${role} process exited before it was ready`);
}

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map(async (c) => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGTERM');
    await once(c, 'exit');
  }));
  process.exit(code);
}

try {
  // One API process first: it migrates the database and creates the workspace; the rest join it.
  const first = await start('api');
  const rest = await Promise.all([
    ...Array.from({ length: API_PROCESSES - 1 }, () => start('api')),
    ...Array.from({ length: WORKERS }, () => start('worker')),
  ]);
  const apis = [first, ...rest.slice(0, API_PROCESSES - 1)].map((u) => new URL(u));
  let next = 0;
  const proxy = net.createServer((client) => {
    const target = apis[next++ % apis.length] as URL;
    const upstream = net.connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  proxy.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1');
  await once(proxy, 'listening');
  const { address, port } = proxy.address() as net.AddressInfo;
  console.log(`Rapport cluster on http://${address}:${port}: ${API_PROCESSES} API processes (${apis.map((u) => u.port).join(', ')}), ${WORKERS} workers, on ${databaseUrl.replace(/:[^:@/]*@/, ':***@')}`);
  if (generated) console.log(`  API key (Service-Api-Key): ${env.SERVICE_API_KEY}\n  Webhook signing secret:    ${env.SIGNING_SECRET}`);
  for (const c of children) {
    c.once('exit', (code, signal) => {
      if (stopping) return;
      console.error(`process ${c.pid} ended (${signal ?? code}); stopping the cluster`);
      void stop(1);
    });
  }
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
} catch (err) {
  console.error((err as Error).message);
  await stop(1);
}
