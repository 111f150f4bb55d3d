// Issue 41, "not covered": the cost of GET /v1/entities/:id/metrics for a person in many hour-long
// recordings (18,642 segments each, a 20,000-cue transcript attached to each). Times each request
// and the longest the event loop was held meanwhile (a 1 ms timer's longest gap).
// Run: node_modules/.bin/node bench/entity-metrics.ts 100   (DATABASE_URL=… for PostgreSQL)
import type { MediaAnalysis } from '@rapport/analysis';
import { cannedAnalysis } from '../packages/server/test/canned-engine.ts';
import { buildTestApp, call, insertMedia } from '../packages/server/test/helpers.ts';
import { newId } from '../packages/server/src/ids.ts';

const N = Number(process.argv[2] ?? 100);
const env: Record<string, string> = { RATE_LIMIT_ENTITIES: '100000' };
if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
const t = await buildTestApp(env);
try {
  const step = 3600 / 18_642;
  const segments = Array.from({ length: 18_642 }, (_, k) => ({ speaker: k % 2, start: k * step, end: k * step + step * 0.9 }));
  const cues = Array.from({ length: 20_000 }, (_, k) => ({ speaker: k % 2 ? 'Bob' : 'Alice', start: k * 0.18, end: k * 0.18 + 0.17, text: `words of cue ${k} said here` }));
  // Real measurements (the canned engine's), on an hour's segments and turns.
  const base = cannedAnalysis([1500, 1500]);
  const turn = base.turns[0];
  const analysis: MediaAnalysis = { ...base, durationSec: 3600, segments, turns: segments.map((g) => ({ ...(turn as NonNullable<typeof turn>), ...g })) };
  await t.services.stores.credits.grant(t.main.workspaceId, N * 61);
  const entityId = newId('ent');
  for (let i = 0; i < N; i++) {
    const media = await insertMedia(t.services, t.main.workspaceId);
    await t.services.stores.media.attachTranscript(t.main.workspaceId, media.id, { format: 'webvtt', cues });
    await t.services.stores.media.completeAnalysis(media.id, analysis, [
      { speakerIndex: 0, entityId, speechSec: 1500, ...(i === 0 ? { create: { voiceprint: [1, 0], label: 'Ada' } } : {}) },
      { speakerIndex: 1, entityId: newId('ent'), speechSec: 1500, create: { voiceprint: [0, 1], label: null } },
    ]);
  }
  let last = performance.now();
  let held = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 1);
  const runs: string[] = [];
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 50));
    last = performance.now();
    held = 0;
    const started = performance.now();
    const res = await call(t, t.main, { method: 'GET', url: `/v1/entities/${entityId}/metrics` });
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, 5));
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
    runs.push(`${Math.round(ms)} ms (loop held ${Math.round(held)} ms, ${(JSON.parse(res.body) as { appearances: unknown[] }).appearances.length} appearances)`);
  }
  clearInterval(probe);
  console.log(`an entity in ${N} hour-long recordings: ${runs.join(', ')}`);
} finally {
  await t.close();
}
