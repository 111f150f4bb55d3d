// The HTML report's layout in Debian's chromium at a phone, a tablet and a laptop width (issue 40
// item 8), by measurement: from a tablet's width up each figure uses the room (it is not the
// phone drawing scaled), its text stays between 12 and 18 px, no threshold mark crosses a text,
// no two texts of a figure overlap, and nothing makes the page scroll sideways; the pair's
// timeline, wider than a phone, scrolls in place with a cue shown exactly when it overflows. A screenshot of
// each width goes to $SCREENSHOT_DIR (else a fresh temporary folder); the test prints the paths.
// `UPDATE_DOCS=1` also writes the laptop-width figure docs/results.md shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { renderHtml } from '../src/documents/html.ts';
import { sampleMatching, sampleReport } from '../src/documents/sample.testkit.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
const WIDTHS = [390, 768, 1280] as const;
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;

let browser: Browser;
let dir: string;
let shots: string;
const files: { name: string; url: string }[] = [];
// The recording Ada and Speaker 2 share, as the API answers its diarization (drawn under `conversation`).
const interview = { durationSec: 20, segments: [{ speaker: 0, start: 0.5, end: 4 }, { speaker: 1, start: 3.5, end: 8 }, { speaker: 0, start: 8.4, end: 12 }] };

before(async () => {
  if (skip) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  dir = mkdtempSync(join(tmpdir(), 'rapport-report-'));
  shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'rapport-layout-'));
  mkdirSync(shots, { recursive: true });
  for (const [name, built] of [['matching', sampleMatching()], ['report', sampleReport()]] as const) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, renderHtml(built.document, built.evidence, { shared: { med_interview: interview } }));
    files.push({ name, url: pathToFileURL(file).href });
  }
});
after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Box { left: number; top: number; right: number; bottom: number }
interface Measured {
  scrollWidth: number;
  /** Each pair timeline: whether it is wider than its box, and whether its cue shows. */
  timelines: { overflows: boolean; cue: boolean }[];
  figures: {
    variant: string;
    /** Rendered width of the figure drawn (the one the screen shows), and of the room it has. */
    width: number;
    room: number;
    /** Font sizes as rendered (px). */
    fonts: number[];
    markers: Box[];
    texts: (Box & { text: string })[];
  }[];
}

/** Each figure shown at this width (a drawing the CSS hides is left out), measured in CSS pixels. */
function measure(): Measured {
  const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const figures = Array.from(document.querySelectorAll('figure.illustration')).map((fig) => {
    const svgs = Array.from(fig.querySelectorAll('svg')).filter((s) => !s.classList.contains('pair-timeline-svg') && s.getClientRects().length > 0);
    if (svgs.length !== 1) throw new Error(`${fig.className}: ${svgs.length} figure drawings shown`);
    const svg = svgs[0] as SVGSVGElement;
    const rect = svg.getBoundingClientRect();
    const scale = rect.width / svg.viewBox.baseVal.width;
    const style = getComputedStyle(fig);
    return {
      variant: fig.className,
      width: rect.width,
      room: fig.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      fonts: Array.from(svg.querySelectorAll('text')).map((t) => parseFloat(t.getAttribute('font-size') ?? '0') * scale),
      // A path's box leaves out its stroke: a vertical line's is 0 px wide, so the stroke is added.
      markers: Array.from(svg.querySelectorAll('.marker')).map((m) => {
        const r = box(m.getBoundingClientRect());
        const half = (parseFloat(m.getAttribute('stroke-width') ?? '1') * scale) / 2;
        return { left: r.left - half, top: r.top - half, right: r.right + half, bottom: r.bottom + half };
      }),
      texts: Array.from(svg.querySelectorAll('text')).map((t) => ({ ...box(t.getBoundingClientRect()), text: t.textContent ?? '' })),
    };
  });
  const timelines = Array.from(document.querySelectorAll('.pair-timeline-wrap')).map((wrap) => {
    const cue = wrap.previousElementSibling;
    return { overflows: wrap.scrollWidth > wrap.clientWidth + 1, cue: !!cue?.classList.contains('scroll-cue') && cue.getClientRects().length > 0 };
  });
  return { scrollWidth: document.documentElement.scrollWidth, timelines, figures };
}

/** Two boxes overlap by more than half a pixel each way. */
const overlap = (a: Box, b: Box): boolean => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

for (const width of WIDTHS) {
  test(`the report at ${width} px: figures use the width, marks clear of the labels, nothing scrolls sideways`, { skip }, async () => {
    for (const { name, url } of files) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      const shot = join(shots, `report-${name}-${width}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      console.log(`screenshot: ${shot}`);
      if (process.env.UPDATE_DOCS === '1' && name === 'matching' && width === 1280) {
        await page.locator('figure.illustration-growth').screenshot({ path: new URL('../../../docs/results-figure-1280.png', import.meta.url).pathname });
      }
      const m = await page.evaluate(measure);
      assert.ok(m.scrollWidth <= width, `${name} at ${width} px: the page is ${m.scrollWidth} px wide`);
      assert.ok(m.figures.length >= 3, `${name}: ${m.figures.length} figures`);
      assert.ok(m.figures.some((f) => f.markers.length > 0), `${name}: a figure with a threshold mark`);
      for (const t of m.timelines) assert.equal(t.cue, t.overflows, `${name} at ${width} px: the pair's timeline ${t.overflows ? 'overflows' : 'fits'}, its cue ${t.cue ? 'shows' : 'does not'}`);
      if (name === 'matching') assert.deepEqual(m.timelines.map((t) => t.overflows), [width === 390], `${name} at ${width} px: the pair's timeline scrolls on a phone only`);
      for (const f of m.figures) {
        const at = `${name} at ${width} px, ${f.variant}`;
        assert.ok(f.width <= f.room + 0.5, `${at}: drawn ${f.width.toFixed(0)} px in ${f.room.toFixed(0)} px`);
        if (width >= 768) {
          // The room used (the wide drawing at one unit a pixel, at most 720 px), not a phone drawing of 360 px scaled.
          assert.ok(f.width >= Math.min(720, f.room) - 1, `${at}: drawn ${f.width.toFixed(0)} px wide of ${f.room.toFixed(0)} px`);
          if (width >= 1280) assert.ok(f.width >= 600, `${at}: drawn ${f.width.toFixed(0)} px wide, no more than a phone's`);
        }
        assert.ok(Math.min(...f.fonts) >= 12, `${at}: smallest figure text ${Math.min(...f.fonts).toFixed(1)} px`);
        assert.ok(Math.max(...f.fonts) <= 18, `${at}: largest figure text ${Math.max(...f.fonts).toFixed(1)} px (a small drawing blown up)`);
        for (const mark of f.markers) {
          for (const t of f.texts) assert.ok(!overlap(mark, t), `${at}: a threshold mark (x ${mark.left.toFixed(0)}, y ${mark.top.toFixed(0)}–${mark.bottom.toFixed(0)}) crosses the text "${t.text}"`);
        }
        f.texts.forEach((a, i) => f.texts.slice(i + 1).forEach((b) => assert.ok(!overlap(a, b), `${at}: "${a.text}" overlaps "${b.text}"`)));
      }
      if (width === 390) {
        // The scrolling timeline is a focusable, named region: axe finds no serious or critical violation.
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => ((await (window as unknown as { axe: { run(d: Document): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe.run(document)).violations));
        assert.deepEqual(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], `${name} at 390 px: ${JSON.stringify(violations)}`);
      }
      await context.close();
    }
  });
}
