// Engine benchmarks (issue 3): speed on one core for a 10-minute conversation, as a multiple
// of real time, and peak memory (max RSS) while analysing a 1-hour file, measured in a child
// process so that nothing else shares its heap. The audio is synthetic speech generated here
// (packages/analysis/src/speech/synthetic.ts): three voices taking turns over faint noise.
//   node bench/engine.ts            both measurements, printed as JSON
//   BENCH_QUICK=1                   a 2-minute conversation and a 10-minute file (smoke run)
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeMedia, analyzeSamples } from '../packages/analysis/src/analyze.ts';
import { pcm16WavHeader } from '../packages/analysis/src/audio/wav.ts';
import { synthConversation, type SyntheticVoice } from '../packages/analysis/src/speech/synthetic.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const VOICES: SyntheticVoice[] = [
  { f0: 110, formantScale: 1 },
  { f0: 215, formantScale: 1.18 },
  { f0: 150, formantScale: 1.08, levelDb: -30 },
];
const RATE = 16000;

/** Writes a long 16-bit WAV block by block (10-minute conversations), never holding it whole. */
export function writeLongWav(file: string, seconds: number): void {
  const block = 600;
  const blocks = Math.ceil(seconds / block);
  const fd = openSync(file, 'w');
  try {
    const total = Math.round(seconds * RATE);
    writeSync(fd, pcm16WavHeader(total * 2, RATE));
    let written = 0;
    for (let b = 0; b < blocks; b++) {
      const len = Math.min(block, seconds - b * block);
      const { samples } = synthConversation(VOICES, len, { seed: 100 + b, rate: RATE });
      const n = Math.min(samples.length, total - written);
      const pcm = Buffer.alloc(n * 2);
      for (let i = 0; i < n; i++) pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i]! * 32767))), i * 2);
      writeSync(fd, pcm);
      written += n;
    }
  } finally {
    closeSync(fd);
  }
}

async function child(file: string): Promise<void> {
  const t = performance.now();
  const a = await analyzeMedia({ path: file });
  const sec = (performance.now() - t) / 1000;
  const maxRssMb = process.resourceUsage().maxRSS / 1024; // maxRSS is in kilobytes
  console.log(JSON.stringify({ maxRssMb, sec, durationSec: a.durationSec, speakers: a.speakers.length }));
}

/**
 * A fixed numeric workload shaped like the engine's hot loops (diagonal-Gaussian distances of
 * 20-dimensional frames to 24 components, plus exp/log), timed in seconds of CPU. The host's
 * speed swings by a third or more between runs here (shared cores, clock changes), so the engine's
 * time is also reported in units of this workload measured beside it: that ratio compares two
 * commits or two machines where the real-time multiple alone does not.
 */
function referenceSec(): number {
  const dims = 20;
  const components = 24;
  const frames = 4000;
  const x = Float32Array.from({ length: frames * dims }, (_, i) => Math.sin(i * 0.37));
  const means = Float64Array.from({ length: components * dims }, (_, i) => Math.cos(i * 0.11));
  const cpu0 = process.cpuUsage();
  let sink = 0;
  for (let rep = 0; rep < 150; rep++)
    for (let i = 0; i < frames; i++) {
      let best = -Infinity;
      for (let c = 0; c < components; c++) {
        let s = 0;
        for (let d = 0; d < dims; d++) {
          const diff = x[i * dims + d]! - means[c * dims + d]!;
          s += diff * diff;
        }
        best = Math.max(best, -0.5 * s);
      }
      sink += Math.log1p(Math.exp(best));
    }
  const cpu = process.cpuUsage(cpu0);
  if (Number.isNaN(sink)) throw new Error('reference workload: NaN');
  return (cpu.user + cpu.system) / 1e6;
}

export async function benchEngine(): Promise<Record<string, number | string>> {
  const speedSec = QUICK ? 120 : 600;
  const { samples } = synthConversation(VOICES, speedSec, { seed: 7, rate: RATE });
  analyzeSamples(samples.subarray(0, RATE * 20), RATE); // warm-up (JIT)
  // Three runs; the median wall time, and the process CPU time of that run (user + system, all
  // threads, so GC helpers count against us). On a shared machine the wall time of a run swings
  // with the neighbours' load while the CPU time does not: the CPU figure is the one-core speed.
  const runs: { wall: number; cpu: number; speakers: number; reference: number }[] = [];
  referenceSec(); // warm-up (JIT)
  for (let r = 0; r < 3; r++) {
    const reference = referenceSec();
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    const a = analyzeSamples(samples, RATE);
    const wall = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    runs.push({ wall, cpu: (cpu.user + cpu.system) / 1e6, speakers: a.speakers.length, reference });
  }
  runs.sort((x, y) => x.wall - y.wall);
  const median = runs[1]!;

  const memorySec = QUICK ? 600 : 3600;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-'));
  try {
    const file = path.join(dir, 'long.wav');
    writeLongWav(file, memorySec);
    const self = fileURLToPath(import.meta.url);
    const r = spawnSync(process.execPath, [self, '--child', file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`memory bench child failed: ${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as { maxRssMb: number; sec: number; durationSec: number; speakers: number };
    return {
      engine_speed_audio_sec: speedSec,
      engine_speed_x_real_time: Math.round((speedSec / median.wall) * 10) / 10,
      engine_speed_x_real_time_cpu: Math.round((speedSec / median.cpu) * 10) / 10,
      engine_speed_goal_x: 100,
      // CPU seconds of the median run in units of the reference workload run just before it.
      engine_speed_reference_sec: Math.round(median.reference * 1000) / 1000,
      engine_speed_cpu_in_reference_units: Math.round((median.cpu / median.reference) * 10) / 10,
      engine_speed_speakers_found: median.speakers,
      engine_memory_audio_sec: m.durationSec,
      engine_memory_peak_rss_mb: Math.round(m.maxRssMb),
      engine_memory_goal_mb: 300,
      engine_memory_run_x_real_time: Math.round((m.durationSec / m.sec) * 10) / 10,
      engine_memory_speakers_found: m.speakers,
      engine_cpu: os.cpus()[0]?.model ?? 'unknown',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const i = process.argv.indexOf('--child');
  if (i >= 0) await child(process.argv[i + 1]!);
  else console.log(JSON.stringify(await benchEngine(), null, 2));
}
