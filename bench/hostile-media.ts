// Issue 41, "not covered": a tiny file that decodes to hours (56 KB of FLAC holding 3 h 50 min of
// silence: CONSTANT subframes of 65,535 samples) and a video with many audio streams (64 Opus
// tracks in one Matroska file). Each is uploaded to a real service (the engine, analysis
// processes) and followed until its analysis ends: the answer, what was reserved and charged,
// how long it took, and /healthz meanwhile. Make the files first (bench/hostile-media.ts make).
// Run: node_modules/.bin/node bench/hostile-media.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { ffmpegEncode } from '../packages/analysis/src/audio/encode.testkit.ts';
import { start } from '../packages/client/test/real-service.ts';

const FILES = { flac: '/tmp/rapport-silence-3h50.flac', mkv: '/tmp/rapport-streams-64.mkv' };
if (process.argv[2] === 'make') {
  writeFileSync(FILES.flac, await ffmpegEncode(null, ['-c:a', 'flac', '-frame_size', '65535', '-f', 'flac'], ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '13800']));
  const maps = Array.from({ length: 64 }, () => ['-map', '0:a']).flat();
  writeFileSync(FILES.mkv, await ffmpegEncode(null, [...maps, '-c:a', 'libopus', '-f', 'matroska'], ['-f', 'lavfi', '-i', 'sine=f=220:r=16000:d=10']));
  process.exit(0);
}
const service = await start();
const headers = { 'service-api-key': service.apiKey };
try {
  for (const [name, path] of Object.entries(FILES)) {
    const bytes = readFileSync(path);
    const credits = async () => ((await (await fetch(`${service.url}/v1/credits`, { headers })).json()) as { available: number }).available;
    const before = await credits();
    const form = new FormData();
    form.set('file', new Blob([bytes]), path.split('/').pop());
    const started = performance.now();
    const up = await fetch(`${service.url}/v1/files`, { method: 'POST', headers, body: form });
    const media = (await up.json()) as { id: string; durationSec: number | null };
    const reserved = before - (await credits());
    let probeMax = 0;
    let status = '';
    let last: Record<string, unknown> = {};
    for (let i = 0; i < 1200; i++) {
      const p0 = performance.now();
      await (await fetch(`${service.url}/healthz`)).text();
      probeMax = Math.max(probeMax, performance.now() - p0);
      last = (await (await fetch(`${service.url}/v1/files/${media.id}`, { headers })).json()) as Record<string, unknown>;
      status = String((last.analysis as { status?: string } | undefined)?.status);
      if (status === 'ready' || status === 'failed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const error = (last.analysis as { error?: { code: string } } | undefined)?.error?.code ?? '';
    console.log(`${name}: ${bytes.length} bytes, upload ${up.status} declaring ${media.durationSec} s, ${reserved} credits reserved; analysis ${status} ${error} after ${seconds} s, duration ${String(last.durationSec)} s, ${before - (await credits())} credits charged in all; /healthz max ${Math.round(probeMax)} ms`);
  }
} finally {
  await service.close();
}
