// Stretches of several speakers' speech ("runs"), admitted in start order, with a tree over their
// ends that finds, in O(log n), a run still going at some moment of another speaker than one
// given and of a weight above a bound. groupTurns asks this for every short segment (could
// another speaker have run through it?); it asked every speaker with a segment live at that
// moment, which was quadratic where thousands of names speak at once (a transcript may give
// each of its 20,000 cues its own name, all at the same time).

import { combineBySpeaker } from '../behavior/interval-index.ts';

export interface SpeakerRun {
  start: number;
  end: number;
  speaker: number;
  /** What a query bounds from below (groupTurns: the speaker's longest segment). */
  weight: number;
}

export class RunIndex {
  /** The runs by start, in the order they are admitted. */
  private readonly runs: readonly SpeakerRun[];
  /** The ends of the runs, ascending: the tree's leaves are in this order. */
  private readonly ends: Float64Array;
  /** leafOf[k]: the leaf of runs[k]. */
  private readonly leafOf: Int32Array;
  private readonly size: number;
  /**
   * For each node: the largest weight of an admitted run below it (`weight1`), that run's speaker
   * (`speaker1`), and the largest weight among runs of other speakers than that one (`weight2`):
   * the second is what lets "of another speaker" prune a subtree.
   */
  private readonly weight1: Float64Array;
  private readonly speaker1: Float64Array;
  private readonly weight2: Float64Array;
  private admitted = 0;

  /** `runs` sorted by start. */
  constructor(runs: readonly SpeakerRun[]) {
    this.runs = runs;
    const byEnd = runs.map((_, k) => k).sort((a, b) => (runs[a] as SpeakerRun).end - (runs[b] as SpeakerRun).end);
    this.ends = Float64Array.from(byEnd, (k) => (runs[k] as SpeakerRun).end);
    this.leafOf = new Int32Array(runs.length);
    byEnd.forEach((k, leaf) => (this.leafOf[k] = leaf));
    let size = 1;
    while (size < runs.length) size *= 2;
    this.size = size;
    this.weight1 = new Float64Array(2 * size).fill(-Infinity);
    this.speaker1 = new Float64Array(2 * size).fill(NaN);
    this.weight2 = new Float64Array(2 * size).fill(-Infinity);
  }

  /** Admits the runs that start at or before `t` (calls come with `t` never decreasing). */
  admit(t: number): void {
    for (; this.admitted < this.runs.length && (this.runs[this.admitted] as SpeakerRun).start <= t; this.admitted++) {
      const run = this.runs[this.admitted] as SpeakerRun;
      let node = this.size + (this.leafOf[this.admitted] as number);
      this.weight1[node] = run.weight;
      this.speaker1[node] = run.speaker;
      for (node >>= 1; node >= 1; node >>= 1) combineBySpeaker(this.weight1, this.speaker1, this.weight2, node);
    }
  }

  /**
   * Whether `test` holds for the speaker of some admitted run that ends at or after `endAtLeast`,
   * whose speaker is not `except` and whose weight is above `weightAbove`; `test` is asked of
   * such runs until it holds (groupTurns' test holds for the first, so this is one descent).
   */
  some(endAtLeast: number, weightAbove: number, except: number, test: (speaker: number) => boolean): boolean {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] as number) < endAtLeast) lo = mid + 1;
      else hi = mid;
    }
    const from = lo;
    const holds = (node: number): boolean => ((this.speaker1[node] as number) !== except ? (this.weight1[node] as number) : (this.weight2[node] as number)) > weightAbove;
    const visit = (node: number, a: number, b: number): boolean => {
      if (b <= from || !holds(node)) return false;
      if (b - a === 1) return (this.speaker1[node] as number) !== except && test(this.speaker1[node] as number);
      const mid = (a + b) >> 1;
      return visit(2 * node + 1, mid, b) || visit(2 * node, a, mid);
    };
    return visit(1, 0, this.size);
  }
}
