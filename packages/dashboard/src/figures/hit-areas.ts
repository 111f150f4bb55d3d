// Where a pointer reaches each segment of a timeline row. A segment is drawn as long as its time
// span (at least a sliver), which on a long recording at phone width can be a pixel or two: too
// small to tap. Each is given an invisible hit area of at least MIN_HIT units (pixels), centred on
// it (slid inward at the drawing's ends), that never reaches past the middle of the gap to the
// next segment of the same row, so that hit areas never overlap and a tap between two segments
// close together goes to the nearer one. The drawing itself is not widened.

/**
 * The smallest hit area's width, in CSS pixels: WCAG 2.2's minimum target size (2.5.8, level AA,
 * 24 by 24 px); the timeline's row, the hit area's height, is 26 px.
 */
export const MIN_HIT = 24;

export interface Span {
  from: number;
  to: number;
}

/**
 * The hit area of each drawn span of one row (the same order), each at least `min` wide where its
 * neighbours leave the room, never past the middle of the gap to a neighbour nor outside
 * `bounds`, and always covering the span as drawn.
 */
export function hitSpans(drawn: readonly Span[], bounds: Span, min = MIN_HIT): Span[] {
  const order = drawn.map((_, i) => i).sort((a, b) => drawn[a]!.from - drawn[b]!.from || drawn[a]!.to - drawn[b]!.to);
  const out: Span[] = drawn.map((d) => ({ ...d }));
  let before = -Infinity; // where the spans before this one end, the furthest
  order.forEach((i, k) => {
    const d = drawn[i]!;
    const next = order[k + 1] === undefined ? undefined : drawn[order[k + 1]!];
    const width = Math.max(d.to - d.from, Math.min(min, bounds.to - bounds.from));
    const mid = (d.from + d.to) / 2;
    // Centred, then slid inside the drawing at either end.
    let from = mid - width / 2;
    from = Math.min(Math.max(from, bounds.from), bounds.to - width);
    let to = from + width;
    // Not past the middle of the gap to a neighbour.
    if (before > -Infinity) from = Math.max(from, (before + d.from) / 2);
    if (next) to = Math.min(to, (d.to + next.from) / 2);
    out[i] = { from: Math.min(from, d.from), to: Math.max(to, d.to) };
    before = Math.max(before, d.to);
  });
  return out;
}
