// A figure as SVG for HTML (the standalone report) and the dashboard: one self-contained <svg>
// element, no script, no external reference, drawn with paths; a view box `width` units wide
// (360 by default, the phone drawing) that scales to its container. One drawing code for every
// width: the report draws each figure at 360 and at WIDE_FIGURE_WIDTH and shows one by CSS, the
// dashboard at its column's width. A threshold is a short mark across each bar's track, never a
// line through the labels (issue 40 item 8). Named for screen readers (role="img").
import type { Figure, FigureBar, FigureGroup } from './figures.ts';

/** The view box's width when none is asked: the phone width the report is laid out for. */
export const FIGURE_WIDTH = 360;
/** The report's drawing from a tablet's width up and in print: twice the phone's, one unit a pixel at most. */
export const WIDE_FIGURE_WIDTH = 720;
const COLORS = { text: '#1f2937', muted: '#4b5563', track: '#e5e7eb', bar: '#2f5fb3', marker: '#b45309' } as const;

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A text broken at spaces into lines of at most `max` characters (a word longer than a line is
 * clipped), at most `lines` lines: names and headings are shown whole instead of cut.
 */
export function wrapText(s: string, max: number, lines = 3): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if ([...next].length <= max) line = next;
    else {
      if (line) out.push(line);
      line = clip(word, max);
    }
  }
  if (line) out.push(line);
  if (out.length <= lines) return out.length ? out : [''];
  const kept = out.slice(0, lines);
  kept[lines - 1] = clip(`${kept[lines - 1]} ${out.slice(lines).join(' ')}`, max);
  return kept;
}

const LINE = 18;

/** Characters of 15 px text that fit in a line as wide as `base` allows at the default width. */
const chars = (W: number, base: number): number => Math.floor((base * W) / FIGURE_WIDTH);

/** Lines of text from `y` (the first baseline), one <text> each. */
function textLines(lines: string[], y: number, attrs: string): string[] {
  return lines.map((l, i) => `<text x="0" y="${y + i * LINE}" ${attrs}>${escapeXml(l)}</text>`);
}

const n = (x: number) => Number(x.toFixed(2));
const rect = (x: number, y: number, w: number, h: number) => `M${n(x)} ${n(y)}h${n(w)}v${n(h)}h${n(-w)}Z`;

/** The threshold's mark on one track (top at `at`, 11 high): 2 units above and below it, clear of the label above and the note below. */
function markerTick(x: number, at: number): string {
  return `<path class="marker" d="M${n(x)} ${at - 2}V${at + 13}" stroke="${COLORS.marker}" stroke-width="3" fill="none"/>`;
}

function barRows(g: FigureGroup, b: FigureBar, y: number, out: string[], W: number, marker: number | null): number {
  // The value keeps its place at the right of the first line; the label wraps beside it.
  const label = wrapText(b.label, Math.max(12, chars(W, 40) - [...b.text].length));
  out.push(...textLines(label, y + 15, `font-size="15" fill="${COLORS.text}"`));
  out.push(`<text x="${W}" y="${y + 15}" font-size="15" font-weight="600" text-anchor="end" fill="${COLORS.text}">${escapeXml(b.text)}</text>`);
  const at = y + 22 + (label.length - 1) * LINE;
  const share = b.value === null || g.max <= 0 ? 0 : Math.min(1, Math.max(0, b.value / g.max));
  out.push(`<path d="${rect(0, at, W, 11)}" fill="${COLORS.track}"/>`);
  if (share > 0) out.push(`<path class="bar" d="${rect(0, at, W * share, 11)}" fill="${COLORS.bar}"/>`);
  if (marker !== null) out.push(markerTick(marker, at));
  let bottom = at + 11;
  if (b.note) {
    const note = wrapText(b.note, chars(W, 50));
    out.push(...textLines(note, bottom + 16, `font-size="13" fill="${COLORS.muted}"`));
    bottom += 19 + (note.length - 1) * LINE;
  }
  return bottom + 11;
}

function group(g: FigureGroup, y: number, out: string[], W: number): number {
  const heading = wrapText(g.heading, chars(W, 44));
  out.push(...textLines(heading, y + 15, `font-size="15" font-weight="700" fill="${COLORS.text}"`));
  let cursor = y + 24 + (heading.length - 1) * LINE;
  // Kept 1.5 units inside the track at either end, so that the mark's stroke stays in the drawing.
  const marker = g.marker && g.max > 0 ? Math.min(W - 1.5, Math.max(1.5, W * (g.marker.value / g.max))) : null;
  for (const b of g.bars) cursor = barRows(g, b, cursor, out, W, marker);
  if (g.marker && marker !== null) {
    out.push(`<text x="0" y="${cursor + 8}" font-size="13" fill="${COLORS.marker}">┃ ${escapeXml(g.marker.label)}</text>`);
    cursor += 18;
  }
  return cursor + 8;
}

/** A plain-language description of the figure, for screen readers (the SVG's accessible name). */
export function figureDescription(f: Figure): string {
  return `${f.title}. ${f.groups.map((g) => `${g.heading}: ${g.bars.map((b) => `${b.label} ${b.text}${b.note ? ` (${b.note})` : ''}`).join('; ')}`).join('. ')}.`;
}

/**
 * `width`: the view box's width in units drawn at one pixel each where the figure is shown that
 * wide (the dashboard passes its column's width, so that text stays at its size and the bars use
 * the room); FIGURE_WIDTH, the default, scales to a phone. `className`: the drawing's first class
 * (`figure`; the report's wide drawing is `figure-wide`), before `figure-<variant>`.
 */
export function figureSvg(f: Figure, options: { width?: number; className?: string } = {}): string {
  const W = Math.max(FIGURE_WIDTH, Math.round(options.width ?? FIGURE_WIDTH));
  const body: string[] = [];
  let y = 0;
  for (const g of f.groups) y = group(g, y, body, W);
  const h = Math.ceil(y);
  const label = escapeXml(figureDescription(f));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="${escapeXml(options.className ?? 'figure')} figure-${f.variant}" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="${label}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title>${escapeXml(f.title)}</title>`,
    ...body,
    '</svg>',
  ].join('\n');
}
