// Horizontal bar charts (one bar a row, its name on the left and its value in words at the bar's
// end), drawn as wide as their box, one unit a pixel, so that their 12 px text stays 12 px at
// every width, a phone's too: the names' column takes at most 40 % of the width (a longer name is
// shortened, in full in its tooltip), the values keep the room their longest text needs, and the
// bars the rest. Scaling a fixed drawing to the box instead made the text about 9 px on a phone.
import type { JSX } from 'preact';
import { useBoxWidth } from '../ui.tsx';

/** The width drawn before the box is measured (the SVG scales to its box meanwhile). */
const UNMEASURED = 480;
/** Longest name drawn whole (characters), where the width allows it. */
const MAX_NAME = 40;
/** About how wide a character of the 12 px axis text is, in units (pixels). */
const CHAR = 7;
/** The names' column takes at most this share of the width. */
const NAMES_SHARE = 0.4;
const ROW = 24;

export interface BarRow {
  label: string;
  /** The bar's length as a share of the longest possible (0–1); null draws no bar. */
  fraction: number | null;
  /** The value in words, at the bar's end ("47%", "not measured"). */
  text: string;
  colour: string;
}

/** The chart's geometry at a width (units, one a pixel): where the bars start, how long a full one is, each row's name as drawn. */
export function barsLayout(width: number, rows: readonly BarRow[]): { left: number; span: number; names: string[] } {
  const chars = Math.max(4, Math.min(MAX_NAME, Math.floor((width * NAMES_SHARE - 10) / CHAR)));
  const names = rows.map((r) => (r.label.length > chars ? `${r.label.slice(0, chars - 1)}…` : r.label));
  const left = Math.max(40, 10 + CHAR * Math.max(0, ...names.map((n) => n.length)));
  // The value's text after the bar: 6 units of gap, its characters and a little to spare.
  const values = 10 + CHAR * Math.max(0, ...rows.map((r) => r.text.length));
  return { left, span: Math.max(20, width - left - values), names };
}

export function BarChart({ label, rows }: { label: string; rows: readonly BarRow[] }): JSX.Element {
  const box = useBoxWidth<HTMLDivElement>();
  const width = Math.max(120, box.px ?? UNMEASURED);
  const { left, span, names } = barsLayout(width, rows);
  return (
    <div class="bars-box" ref={box.ref}>
      <svg class="bars" viewBox={`0 0 ${width} ${rows.length * ROW + 4}`} role="img" aria-label={label}>
        {rows.map((r, i) => {
          const length = r.fraction === null ? 0 : Math.min(1, Math.max(0, r.fraction)) * span;
          return (
            <g key={i}>
              <text x={left - 6} y={i * ROW + 16} text-anchor="end" class="axis">{names[i]}<title>{r.label}</title></text>
              {r.fraction !== null ? <rect x={left} y={i * ROW + 4} width={Math.max(1, length)} height={16} fill={r.colour} /> : null}
              <text x={left + 6 + length} y={i * ROW + 16} class="axis">{r.text}</text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** Each speaker's talk share (0–1) as a bar chart. */
export function ShareBars({ rows }: { rows: { label: string; share: number; colour: string }[] }): JSX.Element {
  const pct = (share: number): string => `${Math.round(share * 100)}%`;
  return (
    <BarChart label={`Talk share: ${rows.map((r) => `${r.label} ${pct(r.share)}`).join(', ')}`}
      rows={rows.map((r) => ({ label: r.label, fraction: r.share, text: pct(r.share), colour: r.colour }))} />
  );
}
