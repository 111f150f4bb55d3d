// What a deployment's own speaker network (SPEAKER_EMBEDDING_MODEL) costs the analysis, against
// the built-in window embedding measured in the same run, runs alternated: a 10-minute synthetic
// conversation (bench/engine.ts's voices) analysed with
//   - the built-in LDA (the baseline),
//   - the project's TDNN at its training size (C = 64, as training/train-real-voices.sh trains it;
//     seeded weights: speed does not depend on them) exported to ONNX, reading the engine's
//     speaker features,
//   - a network reading 80-band fbank (the window's mean through a projection), which adds the
//     fbank computed while decoding and its copy per window; a published ResNet or ECAPA costs
//     its own FLOPs on top (not measurable here: no such model may be brought onto this host),
// and the peak memory of a 1-hour file with the fbank network (80 bands kept, 2 bytes each).
//   node bench/speaker-model.ts           printed as JSON        BENCH_QUICK=1: 2 min and 10 min
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeMedia, analyzeSamples } from '../packages/analysis/src/analyze.ts';
import { loadOnnxEmbedding, type OnnxEmbeddingModel } from '../packages/analysis/src/speech/diarization/onnx-embedding.ts';
import { synthConversation } from '../packages/analysis/src/speech/synthetic.ts';
import { exportSpeakerNet, writeOnnxModel } from '../training/export-speaker-net-onnx.ts';
import { seededSpeakerNet, writeMeanFbankModel } from '../training/onnx-fixtures.ts';
import { writeLongWav } from './engine.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const RATE = 16000;

function models(dir: string): Record<string, OnnxEmbeddingModel | undefined> {
  const { onnx, spec } = exportSpeakerNet(seededSpeakerNet('tdnn-c64', 64, 128, 32, 1, 0.2));
  writeOnnxModel(path.join(dir, 'tdnn.onnx'), onnx, spec);
  return { builtin: undefined, tdnn: loadOnnxEmbedding(path.join(dir, 'tdnn.onnx')), fbank80: loadOnnxEmbedding(writeMeanFbankModel(dir, 'fbank80', 80, 192)) };
}

async function child(file: string, model: string): Promise<void> {
  const t = performance.now();
  const a = await analyzeMedia({ path: file, speakerEmbedding: loadOnnxEmbedding(model) });
  console.log(JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024, sec: (performance.now() - t) / 1000, speakers: a.speakers.length }));
}

export async function benchSpeakerModel(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-byo-'));
  try {
    const all = models(dir);
    const speedSec = QUICK ? 120 : 600;
    const { samples } = synthConversation([{ f0: 110, formantScale: 1 }, { f0: 215, formantScale: 1.18 }, { f0: 150, formantScale: 1.08, levelDb: -30 }], speedSec, { seed: 7, rate: RATE });
    const cpu: Record<string, number[]> = {};
    const speakers: Record<string, number> = {};
    for (const m of Object.values(all)) analyzeSamples(samples.subarray(0, RATE * 20), RATE, m ? { speakerEmbedding: m } : {}); // warm-up
    for (let round = 0; round < 3; round++) {
      for (const [name, m] of Object.entries(all)) {
        const c0 = process.cpuUsage();
        const a = analyzeSamples(samples, RATE, m ? { speakerEmbedding: m } : {});
        const c = process.cpuUsage(c0);
        (cpu[name] ??= []).push((c.user + c.system) / 1e6);
        speakers[name] = a.speakers.length;
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const base = median(cpu.builtin!);
    const out: Record<string, number | string> = { byo_audio_sec: speedSec };
    for (const name of Object.keys(all)) {
      const m = median(cpu[name]!);
      out[`byo_${name}_cpu_sec`] = Math.round(m * 100) / 100;
      out[`byo_${name}_x_real_time_cpu`] = Math.round((speedSec / m) * 10) / 10;
      out[`byo_${name}_cpu_vs_builtin`] = Math.round((m / base) * 100) / 100;
      out[`byo_${name}_speakers_found`] = speakers[name]!;
    }
    const memorySec = QUICK ? 600 : 3600;
    const file = path.join(dir, 'long.wav');
    writeLongWav(file, memorySec);
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', file, path.join(dir, 'fbank80.onnx')], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`memory child failed: ${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as { maxRssMb: number; sec: number };
    out.byo_fbank80_memory_audio_sec = memorySec;
    out.byo_fbank80_memory_peak_rss_mb = Math.round(m.maxRssMb);
    out.byo_fbank80_memory_x_real_time = Math.round((memorySec / m.sec) * 10) / 10;
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const i = process.argv.indexOf('--child');
  if (i >= 0) await child(process.argv[i + 1]!, process.argv[i + 2]!);
  else console.log(JSON.stringify(await benchSpeakerModel(), null, 2));
}
