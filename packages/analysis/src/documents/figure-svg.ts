// A figure as SVG for HTML (the standalone report) and the dashboard: one self-contained <svg>
// element, no script, no external reference, drawn with paths; a 360-unit wide view box that
// scales to its container, so it reads at phone width. Named for screen readers (role="img").
import type { Figure, FigureBar, FigureGroup } from './figures.ts';

const W = 360;
const COLORS = { text: '#1f2937', muted: '#4b5563', track: '#e5e7eb', bar: '#2f5fb3', marker: '#b45309' } as const;

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

const n = (x: number) => Number(x.toFixed(2));
const rect = (x: number, y: number, w: number, h: number) => `M${n(x)} ${n(y)}h${n(w)}v${n(h)}h${n(-w)}Z`;

function barRows(g: FigureGroup, b: FigureBar, y: number, out: string[]): number {
  out.push(`<text x="0" y="${y + 15}" font-size="15" fill="${COLORS.text}">${escapeXml(clip(b.label, 30))}</text>`);
  out.push(`<text x="${W}" y="${y + 15}" font-size="15" font-weight="600" text-anchor="end" fill="${COLORS.text}">${escapeXml(b.text)}</text>`);
  const share = b.value === null || g.max <= 0 ? 0 : Math.min(1, Math.max(0, b.value / g.max));
  out.push(`<path d="${rect(0, y + 22, W, 11)}" fill="${COLORS.track}"/>`);
  if (share > 0) out.push(`<path class="bar" d="${rect(0, y + 22, W * share, 11)}" fill="${COLORS.bar}"/>`);
  let bottom = y + 33;
  if (b.note) {
    out.push(`<text x="0" y="${bottom + 16}" font-size="13" fill="${COLORS.muted}">${escapeXml(clip(b.note, 50))}</text>`);
    bottom += 19;
  }
  return bottom + 11;
}

function group(g: FigureGroup, y: number, out: string[]): number {
  out.push(`<text x="0" y="${y + 15}" font-size="15" font-weight="700" fill="${COLORS.text}">${escapeXml(clip(g.heading, 40))}</text>`);
  let cursor = y + 24;
  const top = cursor;
  for (const b of g.bars) cursor = barRows(g, b, cursor, out);
  if (g.marker && g.max > 0) {
    const x = W * Math.min(1, Math.max(0, g.marker.value / g.max));
    out.push(`<path class="marker" d="M${n(x)} ${top + 18}V${cursor - 8}" stroke="${COLORS.marker}" stroke-width="2" stroke-dasharray="4 3" fill="none"/>`);
    out.push(`<text x="0" y="${cursor + 8}" font-size="13" fill="${COLORS.marker}">┆ ${escapeXml(g.marker.label)}</text>`);
    cursor += 18;
  }
  return cursor + 8;
}

/** A plain-language description of the figure, for screen readers (the SVG's accessible name). */
export function figureDescription(f: Figure): string {
  return `${f.title}. ${f.groups.map((g) => `${g.heading}: ${g.bars.map((b) => `${b.label} ${b.text}${b.note ? ` (${b.note})` : ''}`).join('; ')}`).join('. ')}.`;
}

export function figureSvg(f: Figure): string {
  const body: string[] = [];
  let y = 0;
  for (const g of f.groups) y = group(g, y, body);
  const h = Math.ceil(y);
  const label = escapeXml(figureDescription(f));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="figure figure-${f.variant}" viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="${label}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title>${escapeXml(f.title)}</title>`,
    ...body,
    '</svg>',
  ].join('\n');
}
