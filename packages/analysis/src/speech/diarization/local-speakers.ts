// The local speakers of the segmentation (segmentation/local-segmentation.ts) in the engine's
// 10 ms frames: for every window and each of its local speakers, the frames where the network
// hears that speaker, those where it hears that speaker alone (its clean speech: what its voice
// is embedded from, since overlapped frames hold two voices), and the soft activity the
// reconstruction aggregates.
import { outputFrameAt, type LocalSegmentation } from '../segmentation/local-segmentation.ts';
import { embedInPieces, type RangeEmbedder } from './window-embedding.ts';

export interface LocalSpeaker {
  window: number;
  /** Local speaker 0..2 within its window. */
  local: number;
  /** Engine frames where the network's most likely class holds this speaker. */
  active: number;
  /** Of those, the frames where it is the only speaker (ascending). */
  clean: Int32Array;
  /** The embedding of its clean speech, null with too little of it. */
  embedding: Float64Array | null;
}

/** One window in engine frames: [start, end), and per frame the output frame it reads. */
export interface WindowFrames {
  start: number;
  end: number;
  outputFrame: Int32Array;
}

/** The engine frames of each window: those whose centre lies inside it, each mapped to its output frame. */
export function windowFrames(seg: LocalSegmentation, windowSec: number, frames: number): WindowFrames[] {
  return seg.windows.map((w) => {
    const start = Math.max(0, Math.ceil(w.startSec * 100 - 0.5));
    const end = Math.min(frames, Math.ceil((w.startSec + windowSec) * 100 - 0.5));
    const outputFrame = new Int32Array(Math.max(0, end - start));
    for (let i = start; i < end; i++) outputFrame[i - start] = outputFrameAt(seg, w, (i + 0.5) / 100);
    return { start, end, outputFrame };
  });
}

/**
 * Every local speaker the network hears in some frame of its window. `speech`: the frames the
 * speech detector kept (the segmentation's speakers outside them are not speech); `embedder`
 * embeds each one's clean frames when it has at least `minCleanFrames` of them.
 */
export function localSpeakers(seg: LocalSegmentation, frames: WindowFrames[], speech: Uint8Array, embedder: RangeEmbedder | null, minCleanFrames: number): LocalSpeaker[] {
  const out: LocalSpeaker[] = [];
  const clean: number[] = [];
  seg.windows.forEach((_, w) => {
    const wf = frames[w]!;
    const active = seg.active[w]!;
    for (let k = 0; k < seg.speakers; k++) {
      const bit = 1 << k;
      let count = 0;
      clean.length = 0;
      for (let i = wf.start; i < wf.end; i++) {
        if (!speech[i]) continue;
        const a = active[wf.outputFrame[i - wf.start]!]!;
        if (!(a & bit)) continue;
        count++;
        if (a === bit) clean.push(i);
      }
      if (count === 0) continue;
      const cleanFrames = Int32Array.from(clean);
      // 1.5 s at a time, the windows the LDA was trained on: better on the folds than all at once.
      const embedding = embedder && cleanFrames.length >= minCleanFrames ? embedInPieces(embedder, cleanFrames, embedder.windowFrames) : null;
      out.push({ window: w, local: k, active: count, clean: cleanFrames, embedding });
    }
  });
  return out;
}

/**
 * How much two overlapping windows' local speakers agree on the speech frames both windows cover:
 * shared activity over joint activity (0-1). The same voice heard by both windows gives near 1.
 */
export function agreement(seg: LocalSegmentation, windows: WindowFrames[], speech: Uint8Array, w: number, k: number, v: number, j: number): number {
  const a = windows[w]!;
  const b = windows[v]!;
  const L = seg.speakers;
  let both = 0;
  let either = 0;
  for (let i = Math.max(a.start, b.start); i < Math.min(a.end, b.end); i++) {
    if (!speech[i]) continue;
    const x = seg.activity[w]![a.outputFrame[i - a.start]! * L + k]!;
    const y = seg.activity[v]![b.outputFrame[i - b.start]! * L + j]!;
    both += Math.min(x, y);
    either += Math.max(x, y);
  }
  return either > 0 ? both / either : 0;
}
