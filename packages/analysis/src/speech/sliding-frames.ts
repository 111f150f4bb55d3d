// Streaming framing shared by the frame features (features.ts) and the fbank (fbank.ts): samples
// arrive in chunks of any size, every frame of `win` samples starting each `hop` samples goes to
// `onFrame`, and at the end zero-padded frames follow until there is one per `hop` samples seen,
// so that every input sample belongs to a frame and both analyses give the same frame count.

export class SlidingFrames {
  private readonly win: number;
  private readonly hop: number;
  private readonly onFrame: (frame: Float32Array) => void;
  private pending: Float32Array;
  private readonly tail: Float32Array;
  private emitted = 0;
  /** Input samples pushed so far (the lead-in not counted). */
  samplesSeen = 0;

  /** `leadIn`: zeros before the first sample (a frame centred on sample 0 starts before it). */
  constructor(win: number, hop: number, onFrame: (frame: Float32Array) => void, leadIn = 0) {
    this.win = win;
    this.hop = hop;
    this.onFrame = onFrame;
    this.pending = new Float32Array(leadIn);
    this.tail = new Float32Array(win);
  }

  push(chunk: Float32Array): void {
    this.samplesSeen += chunk.length;
    const buf = new Float32Array(this.pending.length + chunk.length);
    buf.set(this.pending);
    buf.set(chunk, this.pending.length);
    let start = 0;
    while (start + this.win <= buf.length) {
      this.frame(buf.subarray(start, start + this.win));
      start += this.hop;
    }
    this.pending = buf.slice(start);
  }

  /** The zero-padded last frames: afterwards there is one frame per `hop` samples seen (rounded up). */
  finish(): void {
    const wanted = Math.ceil(this.samplesSeen / this.hop);
    while (this.emitted < wanted) {
      this.tail.fill(0);
      this.tail.set(this.pending.subarray(0, Math.min(this.win, this.pending.length)));
      this.frame(this.tail);
      this.pending = this.pending.subarray(Math.min(this.hop, this.pending.length));
    }
  }

  private frame(x: Float32Array): void {
    this.emitted++;
    this.onFrame(x);
  }
}
