// Append-only Float32 storage that doubles its capacity: frame features of hours of audio live
// in a few compact typed arrays instead of millions of small objects.
export class GrowableF32 {
  private data: Float32Array;
  length = 0;
  readonly width: number;

  constructor(width = 1, initialRows = 4096) {
    this.width = width;
    this.data = new Float32Array(initialRows * width);
  }

  /** Reserves one row and returns its offset into `view()`. */
  pushRow(): number {
    const need = (this.length + 1) * this.width;
    if (need > this.data.length) {
      const next = new Float32Array(Math.max(need, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    return this.length++ * this.width;
  }

  push(v: number): void {
    // pushRow may replace this.data: take the index first, then the (new) array.
    const i = this.pushRow();
    this.data[i] = v;
  }

  /** The rows written so far (a view: valid until the next push). */
  view(): Float32Array {
    return this.data.subarray(0, this.length * this.width);
  }

  /** The rows written so far, trimmed to size (no copy when the capacity was exact). */
  toArray(): Float32Array {
    const n = this.length * this.width;
    return n === this.data.length ? this.data : this.data.slice(0, n);
  }
}
