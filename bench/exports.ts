// Issue 41, finding 2: the diarization files and the HTML report of an hour of audio with 18,642
// segments and a 20,000-cue transcript attached held the event loop for seconds (RTTM 3.6 s, VTT
// and SRT 2.6 s, the matching HTML 2.3 s). For each, three requests through the app on the
// embedded store (DATABASE_URL set: PostgreSQL), timing each and the longest the event loop
// was held meanwhile (what a /healthz probe would have waited: the longest gap of a 1 ms timer).
// Run: node_modules/.bin/node bench/exports.ts
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, insertMedia } from '../packages/server/test/helpers.ts';
import { fileUpload } from '../packages/server/src/files/files.fixtures.testkit.ts';
import { sampleMatching } from '../packages/analysis/src/documents/sample.testkit.ts';
import { newId, nowIso } from '../packages/server/src/ids.ts';

const CLIENT = new URL('./exports-client.ts', import.meta.url).pathname;
const SEGMENTS = 18_642;
const CUES = 20_000;
const DURATION = 3600;
const env: Record<string, string> = { RATE_LIMIT_FILES: '100000', RATE_LIMIT_UPLOAD: '100000', RATE_LIMIT_DEFAULT: '100000' };
if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
const t = await buildTestApp(env);
try {
  const media = await insertMedia(t.services, t.main.workspaceId);
  const clock = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
  const cues = Array.from({ length: CUES }, (_, k) => {
    const start = (k * DURATION) / CUES;
    return `${clock(start)} --> ${clock(start + 0.17)}\n<v ${k % 2 ? 'Bob' : 'Alice'}>words of cue ${k} said here`;
  });
  const vtt = `WEBVTT\n\n${cues.join('\n\n')}\n`;
  const up = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(vtt, 'talk.vtt', { mediaId: media.id }) });
  if (up.statusCode !== 201 && up.statusCode !== 200) throw new Error(`transcript: ${up.statusCode} ${up.body}`);
  const step = DURATION / SEGMENTS;
  const segments = Array.from({ length: SEGMENTS }, (_, k) => ({ speaker: k % 2, start: Math.round(k * step * 1000) / 1000, end: Math.round((k * step + step * (k % 7 === 0 ? 1.4 : 0.9)) * 1000) / 1000 }));
  const analysis = {
    version: 1, durationSec: DURATION, turns: [], transcript: null, segments,
    speakers: [0, 1].map((index) => ({ index, speechSec: 1500, firstSpeechSec: 0, label: index ? 'Bob' : 'Alice', voiceprint: [1, 0], metrics: {} })),
    method: { vad: 'bench', diarization: 'bench', voiceprint: 'bench', realTimeFactor: null },
  } as unknown as MediaAnalysis;
  await t.services.stores.media.completeAnalysis(media.id, analysis, [0, 1].map((speakerIndex) => ({ speakerIndex, entityId: newId('ent'), speechSec: 1500, create: { voiceprint: [1, 0], label: null } })));

  // A matching result whose pair met in this recording (the sample's, pointed at it).
  const built = sampleMatching();
  const evidence = JSON.parse(JSON.stringify(built.evidence).replaceAll('med_interview', media.id)) as Record<string, unknown>;
  const job = await t.services.stores.jobs.create({ workspaceId: t.main.workspaceId, type: 'matching', request: {}, cost: 1 });
  const resultId = newId('mat');
  const payload = { id: resultId, jobId: job.id, createdAt: nowIso(), json: built.document, markdown: '#' };
  await t.services.stores.jobs.succeed(job.id, { id: resultId, kind: 'matching', payloadJson: JSON.stringify(payload), evidenceJson: JSON.stringify(evidence) },
    { type: 'matching.completed', data: { jobId: job.id, matchingId: resultId, status: 'succeeded' }, webhook: undefined });

  const routes: [string, string][] = [
    ['rttm', `/v1/files/${media.id}/diarization?format=rttm`],
    ['vtt', `/v1/files/${media.id}/diarization?format=vtt`],
    ['srt', `/v1/files/${media.id}/diarization?format=srt`],
    ['html', `/v1/matching/${resultId}/html`],
  ];
  // In-process: each request's time and the longest gap between two ticks of a 1 ms timer while
  // it ran (how long the event loop was held).
  let last = performance.now();
  let held = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 1);
  for (const [name, url] of routes) {
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      last = performance.now();
      held = 0;
      const started = performance.now();
      const res = await call(t, t.main, { method: 'GET', url });
      const ms = performance.now() - started;
      await new Promise((r) => setTimeout(r, 5)); // the tick after the stretch that held the loop
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      runs.push(`${Math.round(ms)} ms (loop held ${Math.round(held)} ms, ${Math.round(res.body.length / 1024)} KiB)`);
    }
    console.log(`${name.padEnd(4)} ${runs.join(', ')}`);
  }
  clearInterval(probe);

  // Over HTTP, the clients in processes of their own: /healthz every 20 ms while the exports run.
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const run = (args: string[]) => {
    const child = spawn(process.execPath, [CLIENT, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    return { child, done: new Promise<string>((resolve) => child.on('close', () => resolve(out))) };
  };
  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
    return `${sorted.length} probes, median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms`;
  };
  // The same probes with nothing else asked: what this host gives at best.
  const idle = run(['probe', `${base}/healthz`]);
  await new Promise((r) => setTimeout(r, 3000));
  idle.child.kill('SIGTERM');
  console.log(`/healthz alone: ${stats(JSON.parse(await idle.done) as number[])}`);
  const prober = run(['probe', `${base}/healthz`]);
  await new Promise((r) => setTimeout(r, 500));
  const perRoute = JSON.parse(await run(['fetch', base, t.main.apiKey, ...routes.map(([, url]) => url)]).done) as Record<string, number[]>;
  prober.child.kill('SIGTERM');
  const probes = JSON.parse(await prober.done) as number[];
  for (const [name, url] of routes) console.log(`http ${name.padEnd(4)} ${(perRoute[url] ?? []).map((ms) => `${Math.round(ms)} ms`).join(', ')}`);
  console.log(`/healthz meanwhile: ${stats(probes)}`);

} finally {
  await t.close();
}
