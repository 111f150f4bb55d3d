// Issue 41, "not covered": slow-read (slowloris) clients on the dashboard's static files. N
// connections ask for /assets/app.js (uncompressed, 125 KB) and then read nothing; the service's
// resident memory and a /healthz probe are measured while they hang, and when the idle timeout
// (REQUEST_IDLE_TIMEOUT_SEC, here 5 s) or the keep-alive timeout has closed them. The clients live in a process of their own.
// Run: node_modules/.bin/node --expose-gc bench/slow-readers.ts 500
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { buildTestApp } from '../packages/server/test/helpers.ts';

const N = Number(process.argv[2] ?? 500);
const t = await buildTestApp({ REQUEST_IDLE_TIMEOUT_SEC: '5' });
try {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  const rss = () => Math.round(process.memoryUsage().rss / 1e6);
  const probe = async () => {
    const started = performance.now();
    await (await fetch(`http://127.0.0.1:${port}/healthz`)).text();
    return Math.round(performance.now() - started);
  };
  const before = rss();
  const clients = spawn(process.execPath, ['--input-type=module', '-e', `
    import net from 'node:net';
    const sockets = [];
    for (let i = 0; i < ${N}; i++) {
      const s = net.connect(${port}, '127.0.0.1', () => s.write('GET /assets/app.js HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'));
      s.pause();
      s.on('error', () => {});
      sockets.push(s);
    }
    setInterval(() => {}, 1000);
  `], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 2000));
  globalThis.gc?.();
  const held = rss();
  const probes = [await probe(), await probe(), await probe()];
  const connections = await new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));
  console.log(`${N} slow readers: service RSS ${before} -> ${held} MB, ${connections} connections open, /healthz ${probes.join(', ')} ms`);
  // A response the kernel took whole leaves the connection idle in keep-alive: it ends after
  // fastify's keepAliveTimeout (72 s) rather than REQUEST_IDLE_TIMEOUT_SEC.
  for (const wait of [7_000, 70_000]) {
    await new Promise((r) => setTimeout(r, wait));
    globalThis.gc?.();
    const after = await new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));
    console.log(`after ${wait / 1000} s more: ${after} connections open, RSS ${rss()} MB, /healthz ${await probe()} ms`);
  }
  clients.kill();
} finally {
  await t.close();
}
