// Streaming band-limited resampler: windowed-sinc interpolation at any rate ratio, fed in chunks.
// The kernel's cutoff is the lower of the two Nyquist frequencies, so downsampling does not
// alias; a kernel table with linear interpolation between phases keeps it fast.

const ZERO_CROSSINGS = 10; // half-width of the kernel in zero crossings of the cutoff sinc
const TABLE_PHASES = 256; // table entries per zero crossing

export class StreamingResampler {
  readonly inRate: number;
  readonly outRate: number;
  private readonly step: number; // input samples advanced per output sample
  private readonly cutoff: number; // relative to the input rate's Nyquist (<= 1)
  private readonly halfWidth: number; // kernel half-width in input samples
  private readonly table: Float32Array;
  private buffer = new Float32Array(0); // pending input, starting at input index `bufferStart`
  private bufferStart = 0;
  private nextOut = 0; // index of the next output sample

  constructor(inRate: number, outRate: number) {
    this.inRate = inRate;
    this.outRate = outRate;
    this.step = inRate / outRate;
    this.cutoff = Math.min(1, outRate / inRate) * 0.97; // a small guard band below Nyquist
    this.halfWidth = Math.ceil(ZERO_CROSSINGS / this.cutoff);
    const n = ZERO_CROSSINGS * TABLE_PHASES + 2;
    this.table = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const x = i / TABLE_PHASES; // in zero crossings
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w = x >= ZERO_CROSSINGS ? 0 : 0.5 + 0.5 * Math.cos((Math.PI * x) / ZERO_CROSSINGS); // Hann
      this.table[i] = sinc * w;
    }
  }

  private kernel(distance: number): number {
    const x = Math.abs(distance) * this.cutoff * TABLE_PHASES;
    const i = Math.floor(x);
    if (i >= this.table.length - 1) return 0;
    const f = x - i;
    return this.table[i]! * (1 - f) + this.table[i + 1]! * f;
  }

  /** Feeds input samples; returns the output samples that are now fully determined. */
  push(input: Float32Array): Float32Array {
    if (this.inRate === this.outRate) return input;
    const merged = new Float32Array(this.buffer.length + input.length);
    merged.set(this.buffer);
    merged.set(input, this.buffer.length);
    this.buffer = merged;
    return this.produce(false);
  }

  /** Emits the tail (the input is treated as zero after its end). */
  flush(): Float32Array {
    if (this.inRate === this.outRate) return new Float32Array(0);
    return this.produce(true);
  }

  private produce(final: boolean): Float32Array {
    const bufEnd = this.bufferStart + this.buffer.length; // one past the last input index held
    const out: number[] = [];
    const gain = this.cutoff;
    for (;;) {
      const t = this.nextOut * this.step; // position in input samples
      const center = Math.floor(t);
      if (final ? t >= bufEnd : center + this.halfWidth >= bufEnd) break;
      let acc = 0;
      const lo = Math.max(center - this.halfWidth + 1, this.bufferStart);
      const hi = Math.min(center + this.halfWidth, bufEnd - 1);
      for (let k = lo; k <= hi; k++) acc += this.buffer[k - this.bufferStart]! * this.kernel(t - k);
      out.push(acc * gain);
      this.nextOut++;
    }
    // Keep only the input still needed by future outputs.
    const keepFrom = Math.max(this.bufferStart, Math.floor(this.nextOut * this.step) - this.halfWidth);
    this.buffer = this.buffer.slice(keepFrom - this.bufferStart);
    this.bufferStart = keepFrom;
    return Float32Array.from(out);
  }
}

/** One-shot helper for whole signals (tests, benches). */
export function resample(samples: Float32Array, inRate: number, outRate: number): Float32Array {
  const r = new StreamingResampler(inRate, outRate);
  const a = r.push(samples);
  const b = r.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
