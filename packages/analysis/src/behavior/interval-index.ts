// Intervals of several speakers, sorted by start, with a tree over their ends, so that "which of
// them runs at this moment" and "which of them overlap this span" are answered in O(log n) (plus
// the answers) instead of a scan of every interval: the per-speaker metrics asked both once per
// turn or cue, which was quadratic in the turns of a transcript of 20,000 cues (seconds of CPU).

export interface SpeakerInterval {
  start: number;
  end: number;
  speaker: number;
}

/**
 * One node of a tree that keeps, per node, the largest value below it (`best`), the speaker of a
 * leaf holding it (`speaker`), and the largest value among leaves of other speakers than that one
 * (`second`): from its two children. The second is what lets "of another speaker" prune a
 * subtree. Speakers are compared with !==, as the callers compare them.
 */
export function combineBySpeaker(best: Float64Array, speaker: Float64Array, second: Float64Array, node: number): void {
  const [l, r] = [2 * node, 2 * node + 1];
  const left = (best[l] as number) >= (best[r] as number);
  const top = left ? l : r;
  const other = left ? r : l;
  const s = speaker[top] as number;
  best[node] = best[top] as number;
  speaker[node] = s;
  const fromOther = speaker[other] !== s ? (best[other] as number) : (second[other] as number);
  second[node] = Math.max(second[top] as number, fromOther);
}

export class IntervalIndex {
  /** Positions, into the list given, of the intervals kept, by start; equal starts: the later listed first. */
  private readonly order: Int32Array;
  private readonly starts: Float64Array;
  private readonly size: number;
  /**
   * For each node of the tree over `order`: the latest end below it (`end1`), the speaker of an
   * interval ending there (`speaker1`), and the latest end among intervals of other speakers than
   * that one (`end2`). The second is what lets "running, and of another speaker" prune a subtree.
   */
  private readonly end1: Float64Array;
  private readonly speaker1: Float64Array;
  private readonly end2: Float64Array;

  /** Intervals whose start or end is NaN are left out: no comparison ever holds for them. */
  constructor(intervals: readonly SpeakerInterval[]) {
    const kept: number[] = [];
    intervals.forEach((iv, k) => {
      if (!Number.isNaN(iv.start) && !Number.isNaN(iv.end)) kept.push(k);
    });
    kept.sort((a, b) => {
      const x = (intervals[a] as SpeakerInterval).start;
      const y = (intervals[b] as SpeakerInterval).start;
      return x < y ? -1 : x > y ? 1 : b - a;
    });
    this.order = Int32Array.from(kept);
    this.starts = Float64Array.from(kept, (k) => (intervals[k] as SpeakerInterval).start);
    let size = 1;
    while (size < kept.length) size *= 2;
    this.size = size;
    this.end1 = new Float64Array(2 * size).fill(-Infinity);
    this.speaker1 = new Float64Array(2 * size).fill(NaN);
    this.end2 = new Float64Array(2 * size).fill(-Infinity);
    kept.forEach((k, leaf) => {
      const iv = intervals[k] as SpeakerInterval;
      this.end1[size + leaf] = iv.end;
      this.speaker1[size + leaf] = iv.speaker;
    });
    for (let node = size - 1; node >= 1; node -= 1) combineBySpeaker(this.end1, this.speaker1, this.end2, node);
  }

  /** How many intervals start before `t`: they are the first that many of `order`. */
  private startingBefore(t: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.starts[mid] as number) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The interval with the latest start among those of another speaker than `speaker` that run at
   * `t` (start < t < end), as its position in the list given; among equal starts the first listed.
   * -1 when there is none.
   */
  latestRunning(t: number, speaker: number): number {
    const within = this.startingBefore(t);
    const holds = (node: number): boolean => {
      const s = this.speaker1[node] as number;
      return s !== speaker ? (this.end1[node] as number) > t : (this.end2[node] as number) > t;
    };
    // The last leaf before `within` under a node that holds: right child first.
    const last = (node: number, lo: number, hi: number): number => {
      if (lo >= within || !holds(node)) return -1;
      if (hi - lo === 1) return lo;
      const mid = (lo + hi) >> 1;
      const right = last(2 * node + 1, mid, hi);
      return right >= 0 ? right : last(2 * node, lo, mid);
    };
    const leaf = last(1, 0, this.size);
    return leaf >= 0 ? (this.order[leaf] as number) : -1;
  }

  /** The intervals that overlap (from, to) by more than a point (start < to, end > from), as positions in the list given, by start. */
  overlapping(from: number, to: number): number[] {
    const within = this.startingBefore(to);
    const out: number[] = [];
    const collect = (node: number, lo: number, hi: number): void => {
      if (lo >= within || !((this.end1[node] as number) > from)) return;
      if (hi - lo === 1) {
        out.push(this.order[lo] as number);
        return;
      }
      const mid = (lo + hi) >> 1;
      collect(2 * node, lo, mid);
      collect(2 * node + 1, mid, hi);
    };
    collect(1, 0, this.size);
    return out;
  }
}
