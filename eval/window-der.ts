// The segmentation network alone, window by window, against a dataset's RTTM: what the trainer's
// held-out figures measure on its own crops (train-segmentation.py `evaluate`), here on any set of
// recordings (the folds' conversations, AMI, the dev set), so that networks trained on different
// exports are measured on the same audio. In every window the network's most likely class per
// frame is mapped onto the reference voices by the best assignment of its local speakers (each to
// a distinct voice or to none); missed, false alarm and confusion are counted per 10 ms frame as
// in a DER without collar, every frame of every window (so each frame about four times). Only the
// speech detector's frames can be speech, as in the engine (reconstruct.ts): the network alone
// hears a speaker in a meeting room's background (docs/analysis-speech.md). Also:
// the overlap the windows give (frames with two local speakers) against the reference's, and how
// many windows hold two or more reference voices of which the network finds fewer.
//   node eval/window-der.ts --dataset DIR [--segmentation FILE.onnx[,FILE.onnx…]] [--per-file]
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { windowFrames } from '../packages/analysis/src/speech/diarization/local-speakers.ts';
import { readManifest, readRttm } from './dataset.ts';
import { segmentationModel, segmentedAudio } from './segmented-audio.ts';

interface Tally {
  ref: number;
  miss: number;
  fa: number;
  conf: number;
  ovTp: number;
  ovHyp: number;
  ovRef: number;
  /** Windows with two or more reference voices (each with at least 1 s), and of those the windows where the network hears fewer voices than that. */
  multi: number;
  fewer: number;
}

const empty = (): Tally => ({ ref: 0, miss: 0, fa: 0, conf: 0, ovTp: 0, ovHyp: 0, ovRef: 0, multi: 0, fewer: 0 });

function add(a: Tally, b: Tally): void {
  for (const k of Object.keys(a) as (keyof Tally)[]) a[k] += b[k];
}

/** Every assignment of `locals` local speakers to distinct voices 0..voices-1 or none (-1). */
export function assignments(locals: number, voices: number): number[][] {
  const out: number[][] = [];
  const walk = (prefix: number[]): void => {
    if (prefix.length === locals) {
      out.push(prefix);
      return;
    }
    for (let v = -1; v < voices; v++) if (v < 0 || !prefix.includes(v)) walk([...prefix, v]);
  };
  walk([]);
  return out;
}

/** One window: `hyp[i]` the local speakers' bits, `ref[i]` the voices' bits of frame i. */
export function scoreWindow(hyp: Uint8Array, ref: Uint16Array, locals: number, voices: number): Tally {
  const n = hyp.length;
  const present: number[] = [];
  const frames = new Array<number>(voices).fill(0);
  for (let i = 0; i < n; i++) for (let v = 0; v < voices; v++) if ((ref[i]! >> v) & 1) frames[v]!++;
  for (let v = 0; v < voices; v++) if (frames[v]! > 0) present.push(v);
  const heardFrames = new Array<number>(locals).fill(0);
  for (let i = 0; i < n; i++) for (let s = 0; s < locals; s++) if ((hyp[i]! >> s) & 1) heardFrames[s]!++;
  let best: Tally | null = null;
  for (const map of assignments(locals, present.length)) {
    const t = empty();
    for (let i = 0; i < n; i++) {
      let nr = 0;
      let nh = 0;
      let hit = 0;
      for (const v of present) if ((ref[i]! >> v) & 1) nr++;
      for (let s = 0; s < locals; s++) {
        if (!((hyp[i]! >> s) & 1)) continue;
        nh++;
        const v = map[s]!;
        if (v >= 0 && (ref[i]! >> present[v]!) & 1) hit++;
      }
      t.ref += nr;
      t.miss += Math.max(0, nr - nh);
      t.fa += Math.max(0, nh - nr);
      t.conf += Math.min(nr, nh) - hit;
      if (nr >= 2) t.ovRef++;
      if (nh >= 2) t.ovHyp++;
      if (nr >= 2 && nh >= 2) t.ovTp++;
    }
    if (!best || t.miss + t.fa + t.conf < best.miss + best.fa + best.conf) best = t;
  }
  const result = best ?? empty();
  const sure = present.filter((v) => frames[v]! >= 100).length;
  if (sure >= 2) {
    result.multi = 1;
    result.fewer = heardFrames.filter((f) => f >= 25).length < sure ? 1 : 0;
  }
  return result;
}

const pct = (a: number, b: number): string => (b ? ((100 * a) / b).toFixed(1) : '-');
const ratio = (a: number, b: number): string => (b ? (a / b).toFixed(2) : '-');
const row = (name: string, t: Tally): string =>
  `| ${name} | ${pct(t.miss + t.fa + t.conf, t.ref)} | ${pct(t.miss, t.ref)} | ${pct(t.fa, t.ref)} | ${pct(t.conf, t.ref)} | ${ratio(t.ovTp, t.ovHyp)} / ${ratio(t.ovTp, t.ovRef)} | ${t.fewer} of ${t.multi} |`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dataset: { type: 'string' }, segmentation: { type: 'string' }, 'per-file': { type: 'boolean', default: false } } });
  if (!values.dataset) throw new Error('usage: node eval/window-der.ts --dataset DIR [--segmentation FILE.onnx[,…]] [--per-file]');
  const model = segmentationModel(values.segmentation);
  const total = empty();
  const lines: string[] = [];
  for (const file of readManifest(values.dataset).files) {
    const { features: f, segmentation, speech } = await segmentedAudio(values.dataset, file.wav, model);
    const names: string[] = [];
    const ref = new Uint16Array(f.frames);
    for (const r of readRttm(join(values.dataset, file.rttm))) {
      let v = names.indexOf(r.speaker);
      if (v < 0) v = names.push(r.speaker) - 1;
      if (v >= 16) throw new Error(`${file.name}: more than 16 voices`);
      for (let i = Math.max(0, Math.round(r.start * 100)); i < Math.min(f.frames, Math.round(r.end * 100)); i++) ref[i] = ref[i]! | (1 << v);
    }
    const tally = empty();
    windowFrames(segmentation, model.spec.windowSec, f.frames).forEach((wf, w) => {
      const hyp = new Uint8Array(wf.end - wf.start);
      for (let i = wf.start; i < wf.end; i++) hyp[i - wf.start] = speech[i] ? segmentation.active[w]![wf.outputFrame[i - wf.start]!]! : 0;
      add(tally, scoreWindow(hyp, ref.subarray(wf.start, wf.end), segmentation.speakers, names.length));
    });
    add(total, tally);
    lines.push(row(file.name, tally));
  }
  console.log('| file | within-window DER % | missed | false alarm | confusion | overlap P / R | windows hearing fewer voices than speak |');
  console.log('|---|---|---|---|---|---|---|');
  if (values['per-file']) for (const l of lines) console.log(l);
  console.log(row('all', total));
}

if (import.meta.main) await main();
