// A figure as text for Markdown: a bold title and a bar chart in characters inside a `text` code
// block, readable in a terminal and on GitHub. Bars are 20 cells of full and eighth blocks; a
// marker (threshold or norm) is a ┃ across the bars, named in the group's heading.
import type { Figure, FigureGroup } from './figures.ts';
import { escapeMarkdown } from './markdown-escape.ts';

const WIDTH = 20;
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `value / max` in WIDTH cells, with the marker cell drawn over it. */
export function textBar(value: number | null, max: number, marker?: number): string {
  const share = value === null || max <= 0 ? 0 : Math.min(1, Math.max(0, value / max));
  const eighths = Math.round(share * WIDTH * 8);
  const full = Math.floor(eighths / 8);
  const cells = ['█'.repeat(full), EIGHTHS[eighths % 8] ?? ''].join('').split('');
  while (cells.length < WIDTH) cells.push('░');
  if (marker !== undefined && max > 0) {
    const at = Math.min(WIDTH - 1, Math.max(0, Math.round((marker / max) * WIDTH) - 1));
    cells[at] = '┃';
  }
  return cells.join('');
}

function groupLines(g: FigureGroup, labelWidth: number): string[] {
  const heading = g.marker ? `${g.heading} (┃ ${g.marker.label})` : g.heading;
  return [
    heading,
    ...g.bars.map((b) => {
      const label = b.label.padEnd(labelWidth);
      return `  ${label}  ${textBar(b.value, g.max, g.marker?.value)}  ${b.text}${b.note ? `  ${b.note}` : ''}`.trimEnd();
    }),
  ];
}

export function figureText(f: Figure): string {
  const labelWidth = Math.max(0, ...f.groups.flatMap((g) => g.bars.map((b) => [...b.label].length)));
  const lines = f.groups.flatMap((g, i) => [...(i > 0 ? [''] : []), ...groupLines(g, labelWidth)]);
  // A fence longer than any run of backticks in the text, so no label can close it.
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
  const fence = '`'.repeat(longest + 1);
  // Inside the fence text is literal; the title outside it is escaped (it may name a person).
  return [`**Figure: ${escapeMarkdown(f.title)}**`, '', `${fence}text`, ...lines.map((l) => l.replace(/[\r\n\u2028\u2029]+/g, ' ')), fence].join('\n');
}
