// The segmentation network slid over a recording: windows of the network's length every hop
// (the last one ends with the recording; a recording shorter than a window is padded to one: an
// fbank network's with each band's quietest value, a network of samples' with zeros), run in batches.
// What it keeps per window: for every output frame, how likely each local speaker speaks (the
// powerset's classes summed into per-speaker marginals) and the speakers of the most likely class
// (the hard decision the diarization counts speakers and overlap by). An fbank network reads the
// fbank kept for the whole recording (8 kB a second at 40 bands); a network that reads samples
// is fed while the media decodes, from a buffer of one window, so the samples are never held.
import { FBANK_SCALE, type Fbank } from '../fbank.ts';
import { POWERSET_3_2, type SegmentationModel } from './model.ts';

const SR = 16000;
/** Windows per network run. */
const BATCH = 16;

export interface SegmentationWindow {
  /** Where the window starts in the recording, seconds. */
  startSec: number;
  /** Output frames. */
  frames: number;
}

export interface LocalSegmentation {
  /** Local speakers per window. */
  speakers: number;
  stepSec: number;
  durationSec: number;
  windows: SegmentationWindow[];
  /** Per window: frames x speakers, row-major, how likely each local speaker speaks. */
  activity: Float32Array[];
  /** Per window: per output frame, a bit per local speaker of the most likely class. */
  active: Uint8Array[];
}

/** The output frame of a window nearest to a time (seconds from the window's start), clamped to the window. */
export function outputFrameAt(seg: LocalSegmentation, w: SegmentationWindow, sec: number): number {
  const t = Math.round((sec - w.startSec - seg.durationSec / 2) / seg.stepSec);
  return Math.max(0, Math.min(w.frames - 1, t));
}

class Collector {
  readonly result: LocalSegmentation;
  private readonly model: SegmentationModel;
  private pending: { startSec: number; x: Float32Array }[] = [];
  private pendingLength = 0;

  constructor(model: SegmentationModel) {
    this.model = model;
    this.result = { speakers: model.speakers, stepSec: model.spec.frameStepSec, durationSec: model.spec.frameDurationSec, windows: [], activity: [], active: [] };
  }

  /** A window's input (its length: frames for fbank, samples otherwise); run when a batch is full or the length changes. */
  add(startSec: number, x: Float32Array, length: number): void {
    if (this.pending.length > 0 && length !== this.pendingLength) this.flush();
    this.pending.push({ startSec, x });
    this.pendingLength = length;
    if (this.pending.length === BATCH) this.flush();
  }

  flush(): void {
    const n = this.pending.length;
    if (n === 0) return;
    const size = this.pending[0]!.x.length;
    const x = new Float32Array(n * size);
    this.pending.forEach((p, b) => x.set(p.x, b * size));
    const { data, frames } = this.model.run(x, n, this.pendingLength);
    const k = this.model.classes;
    const log = this.model.spec.output.values === 'log-probabilities';
    const powerset = this.model.spec.classes === 'powerset-3-2';
    const speakers = this.model.speakers;
    for (let b = 0; b < n; b++) {
      const activity = new Float32Array(frames * speakers);
      const active = new Uint8Array(frames);
      for (let t = 0; t < frames; t++) {
        const row = (b * frames + t) * k;
        if (powerset) {
          let best = 0;
          for (let c = 0; c < k; c++) {
            const p = log ? Math.exp(data[row + c]!) : data[row + c]!;
            if (data[row + c]! > data[row + best]!) best = c;
            for (let s = 0; s < speakers; s++) if (POWERSET_3_2[c]! & (1 << s)) activity[t * speakers + s] = activity[t * speakers + s]! + p;
          }
          active[t] = POWERSET_3_2[best]!;
        } else {
          for (let s = 0; s < speakers; s++) {
            const p = log ? Math.exp(data[row + s]!) : data[row + s]!;
            activity[t * speakers + s] = p;
            if (p > 0.5) active[t] = active[t]! | (1 << s);
          }
        }
      }
      this.result.windows.push({ startSec: this.pending[b]!.startSec, frames });
      this.result.activity.push(activity);
      this.result.active.push(active);
    }
    this.pending = [];
  }
}

/** Window starts (in units of one step of `hop`) covering `length` with windows of `window`: the last one ends at the end. */
export function windowStarts(length: number, window: number, hop: number): number[] {
  if (length <= window) return [0];
  const starts: number[] = [];
  for (let s = 0; s + window <= length; s += hop) starts.push(s);
  if (starts[starts.length - 1]! + window < length) starts.push(length - window);
  return starts;
}

/** The network over a recording's fbank (fbank networks). */
export function segmentFbank(model: SegmentationModel, fbank: Fbank, hopSec: number): LocalSegmentation {
  const bins = fbank.bins;
  const n = Math.floor(fbank.data.length / bins);
  const collect = new Collector(model);
  if (n === 0) return collect.result;
  const scale = (model.spec.input.valueScale ?? 1) / FBANK_SCALE;
  const length = model.windowFrames;
  // A recording shorter than a window is padded to one whole window (networks exported with a
  // fixed number of frames, the engine's own among them, take no other), with each band's lowest
  // value in the recording: what its silence looks like, not a loud frame of zeros.
  const floor = new Float32Array(bins).fill(Infinity);
  if (n < length) for (let i = 0; i < n * bins; i++) floor[i % bins] = Math.min(floor[i % bins]!, fbank.data[i]!);
  for (const s of windowStarts(n, model.windowFrames, Math.max(1, Math.round(hopSec * 100)))) {
    const x = new Float32Array(length * bins);
    for (let i = 0; i < x.length; i++) x[i] = (s * bins + i < n * bins ? fbank.data[s * bins + i]! : floor[i % bins]!) * scale;
    collect.add(s / 100, x, length);
  }
  collect.flush();
  return collect.result;
}

/** The network over a stream of samples (sample networks): fed while the media decodes. */
export class SampleSegmenter {
  private readonly collect: Collector;
  private readonly window: number;
  private readonly hop: number;
  private readonly buffer: Float32Array;
  /** Samples seen; the buffer holds the last `window` of them, as a ring. */
  private seen = 0;
  private nextStart = 0;

  constructor(model: SegmentationModel, hopSec: number) {
    this.collect = new Collector(model);
    this.window = Math.round(model.spec.windowSec * SR);
    this.hop = Math.max(160, Math.round(hopSec * 100) * 160);
    this.buffer = new Float32Array(this.window);
  }

  push(chunk: Float32Array): void {
    for (let i = 0; i < chunk.length; i++) {
      this.buffer[this.seen % this.window] = chunk[i]!;
      this.seen++;
      if (this.seen === this.nextStart + this.window) {
        this.emit(this.nextStart);
        this.nextStart += this.hop;
      }
    }
  }

  finish(): LocalSegmentation {
    if (this.seen > 0 && (this.collect.result.windows.length === 0 || this.nextStart - this.hop + this.window < this.seen)) {
      // The last window ends with the recording (zero-padded when the recording is shorter).
      this.emit(Math.max(0, this.seen - this.window));
    }
    this.collect.flush();
    return this.collect.result;
  }

  /** The window starting at sample `start` (still in the buffer). */
  private emit(start: number): void {
    const x = new Float32Array(this.window);
    const end = Math.min(this.seen, start + this.window);
    for (let j = start; j < end; j++) x[j - start] = this.buffer[j % this.window]!;
    this.collect.add(start / SR, x, this.window);
  }
}

/**
 * Per 10 ms frame, the share of the windows covering it whose network hears someone speak there
 * (0 where no window covers it): the segmentation's own view of what is speech.
 */
export function heardShare(seg: LocalSegmentation, windowSec: number, frames: number): Float32Array {
  const heard = new Float32Array(frames);
  const cover = new Float32Array(frames);
  seg.windows.forEach((w, k) => {
    const start = Math.max(0, Math.ceil(w.startSec * 100 - 0.5));
    const end = Math.min(frames, Math.ceil((w.startSec + windowSec) * 100 - 0.5));
    for (let i = start; i < end; i++) {
      cover[i] = cover[i]! + 1;
      if (seg.active[k]![outputFrameAt(seg, w, (i + 0.5) / 100)]) heard[i] = heard[i]! + 1;
    }
  });
  return heard.map((h, i) => (cover[i]! > 0 ? h / cover[i]! : 0));
}
