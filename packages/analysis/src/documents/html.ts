// A result as one standalone HTML file (decisions §11's document with its figures): inline CSS
// and SVG, no script, nothing fetched (a Content-Security-Policy says so to the browser),
// printable to PDF, one column at phone width. Each figure is in it twice, drawn 360 units wide for
// a phone and 720 wide from a tablet's width up and in print (WIDE_FROM): CSS shows one, so that on
// a laptop the figure uses the width with its text at its size instead of a phone drawing scaled. Pure string building, as the figures, so that the
// server, the SDK's callers and a browser dashboard can all produce the same file.
import { documentFigures } from './figures.ts';
import type { Figure } from './figures.ts';
import { WIDE_FIGURE_WIDTH, escapeXml, figureSvg } from './figure-svg.ts';
import type { Block, CardBlock, MatchingEvidence, ResultDocument } from './types.ts';
import { conversationPairs, pairRecording, pairTimelineCaption, pairTimelineSvg, type SharedDiarization } from './pair-timeline.ts';

export interface HtmlOptions {
  /** A line at the foot of the page, e.g. "Result mat_… of 2026-11-25". */
  footer?: string;
  /**
   * The diarization of the recordings pairs share, by media id: under each `conversation` figure
   * the pair's turns are drawn from it, as the dashboard draws them (pair-timeline.ts).
   */
  shared?: Readonly<Record<string, SharedDiarization>>;
}

/** What the file may load: nothing but its own inline styles (no script, no request). */
export const RESULT_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * Below this viewport width the pair's timeline (36rem at least) is wider than its figure's box:
 * 36rem + the paddings of main (2 × .85rem) and figure (2 × .6rem) + 2px of border is 624.4px. No
 * script measures it, so its cue ("scroll →") shows by this media query, and the side with more is
 * shaded (backgrounds that scroll with the content cover the shades at its ends).
 */
const TIMELINE_SCROLLS_BELOW = '39rem';

/** The viewport width from which the report shows the wide drawing of each figure (the 720 px drawing fits from here at 12 px text or more). */
const WIDE_FROM = '46rem';

const CSS = `
:root { color-scheme: light; --text: #1f2937; --muted: #4b5563; --line: #d1d5db; --card: #f8fafc; --accent: #2f5fb3; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0 0 .75rem; }
h2 { font-size: 1.3rem; margin: 2.25rem 0 .75rem; padding-bottom: .3rem; border-bottom: 2px solid var(--accent); }
h3 { font-size: 1.02rem; margin: 0 0 .35rem; }
p { margin: 0 0 .75rem; overflow-wrap: anywhere; }
.summary { font-size: 1.08rem; }
.grid { display: grid; gap: .75rem; margin: 0 0 1rem; grid-template-columns: repeat(var(--columns, 2), minmax(0, 1fr)); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .8rem .9rem; break-inside: avoid; }
.card p { margin: 0; }
.text { margin: 0 0 1rem; }
figure { margin: 0 0 1.25rem; padding: .9rem; border: 1px solid var(--line); border-radius: .5rem; break-inside: avoid; }
figcaption { font-weight: 700; margin: 0 0 .6rem; }
figure svg { display: block; width: 100%; height: auto; max-width: 28rem; }
figure svg.figure-wide { display: none; max-width: ${WIDE_FIGURE_WIDTH}px; }
@media (min-width: ${WIDE_FROM}) { figure svg.figure { display: none; } figure svg.figure-wide { display: block; } }
figure svg.pair-timeline-svg { max-width: 40rem; min-width: 36rem; margin-top: .4rem; }
.pair-timeline-wrap { overflow-x: auto; background: linear-gradient(to right, #fff 40%, rgba(255,255,255,0)) left / 1.5rem 100% no-repeat local, linear-gradient(to left, #fff 40%, rgba(255,255,255,0)) right / 1.5rem 100% no-repeat local, linear-gradient(to right, rgba(20,33,61,.25), rgba(20,33,61,0)) left / .9rem 100% no-repeat scroll, linear-gradient(to left, rgba(20,33,61,.25), rgba(20,33,61,0)) right / .9rem 100% no-repeat scroll; }
.scroll-cue { display: none; margin: .4rem 0 0; text-align: right; font-size: .9rem; font-weight: 600; color: var(--muted); }
@media (max-width: ${TIMELINE_SCROLLS_BELOW}) { .scroll-cue { display: block; } }
.pair-timeline { color: var(--muted); font-size: .92rem; margin: .8rem 0 0; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .9rem; }
@media (max-width: 40rem) { .grid { grid-template-columns: minmax(0, 1fr); } main { padding: 1rem .85rem 2rem; } h1 { font-size: 1.45rem; } figure { padding: .6rem; } }
@media print { figure svg.figure { display: none; } figure svg.figure-wide { display: block; } body { font-size: 11pt; } main { max-width: none; padding: 0; } h2 { break-after: avoid; } .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } figure, .card { break-inside: avoid; } }
`.trim();

const esc = escapeXml;

function cardHtml(c: CardBlock): string {
  return `<div class="card"><h3>${esc(c.title)}</h3><p>${esc(c.content)}</p></div>`;
}

function figureHtml(variant: string, figure: Figure | null, extra = ''): string {
  if (!figure) return '';
  const drawings = `${figureSvg(figure)}\n${figureSvg(figure, { width: WIDE_FIGURE_WIDTH, className: 'figure-wide' })}`;
  return `<figure class="illustration illustration-${esc(variant)}"><figcaption>${esc(figure.title)}</figcaption>\n${drawings}${extra}\n</figure>`;
}

function blockHtml(b: Block, figure: () => Figure | null, timeline: () => string): string {
  switch (b.type) {
    case 'card':
      return `<div class="grid" style="--columns: 1">${cardHtml(b)}</div>`;
    case 'grid':
      return `<div class="grid" style="--columns: ${b.columns}">${b.items.map(cardHtml).join('')}</div>`;
    case 'text':
      return `<div class="text">${b.title ? `<h3>${esc(b.title)}</h3>` : ''}<p>${esc(b.content)}</p></div>`;
    case 'illustration':
      return figureHtml(b.variant, figure(), b.variant === 'conversation' ? timeline() : '');
  }
}

/** The whole document as one HTML file; the figures are drawn from the evidence (none without it). */
export function renderHtml(doc: ResultDocument, evidence: MatchingEvidence | null, options: HtmlOptions = {}): string {
  const figures = evidence ? documentFigures(doc, evidence) : [];
  const pairs = evidence ? conversationPairs(doc, evidence) : [];
  let next = 0;
  let conversation = 0;
  const timeline = (): string => {
    const pair = pairs[conversation++];
    const mediaId = pair ? pairRecording(pair) : null;
    const d = mediaId ? options.shared?.[mediaId] : undefined;
    const svg = evidence && pair && d ? pairTimelineSvg(evidence, pair, d) : null;
    // At phone width it keeps a readable size and scrolls sideways in place, as the dashboard's timeline.
    const wrap = `<p class="scroll-cue" aria-hidden="true">scroll →</p>\n<div class="pair-timeline-wrap" tabindex="0" role="region" aria-label="Their turns, scrolls sideways on a small screen">${svg}</div>`;
    return d && svg ? `\n<p class="pair-timeline">${esc(pairTimelineCaption(d))}</p>\n${wrap}` : '';
  };
  const sections = doc.sections.map((s) => {
    const c = s.section_content;
    const blocks: Block[] = Array.isArray(c) ? c : 'type' in c ? [c as Block] : [];
    const body = blocks.map((b) => blockHtml(b, () => (b.type === 'illustration' ? (figures[next++]?.figure ?? null) : null), timeline)).join('\n');
    return `<section>\n<h2>${esc(s.section_title)}</h2>\n${body}\n</section>`;
  });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${RESULT_HTML_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(doc.title)}</title>`,
    `<style>\n${CSS}\n</style>`,
    '</head>',
    '<body>',
    '<main>',
    '<header>',
    `<h1>${esc(doc.title)}</h1>`,
    `<p class="summary">${esc(doc.summary)}</p>`,
    '</header>',
    ...sections,
    options.footer ? `<footer><p>${esc(options.footer)}</p></footer>` : '',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
