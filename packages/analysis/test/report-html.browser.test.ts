// The standalone HTML report in a real browser (Debian's chromium through playwright-core): the
// four figures drawn, no request leaves the file, readable at 390 px, printable, and no serious
// axe-core violation. `UPDATE_DOCS=1` also writes the screenshot docs/results.md shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { renderHtml } from '../src/documents/html.ts';
import { sampleMatching, sampleReport } from '../src/documents/sample.testkit.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

let browser: Browser;
let dir: string;
let matchingUrl: string;
let reportUrl: string;

function write(name: string, html: string): string {
  const file = join(dir, name);
  writeFileSync(file, html);
  return pathToFileURL(file).href;
}

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  dir = mkdtempSync(join(tmpdir(), 'rapport-html-'));
  const m = sampleMatching();
  matchingUrl = write('matching.html', renderHtml(m.document, m.evidence, { footer: 'Generated for the test' }));
  const r = sampleReport();
  reportUrl = write('report.html', renderHtml(r.document, r.evidence));
});
after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens a file and records every request the page makes. CSP is bypassed, so that only the file itself can keep requests from happening. */
async function open(url: string, width: number): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests };
}

test('four figures drawn with non-empty paths, each bar as wide as its value', async () => {
  const { page } = await open(matchingUrl, 1000);
  // Each figure is drawn for a phone (svg.figure) and wide (svg.figure-wide); at 1000 px the wide one shows.
  assert.equal(await page.$$eval('figure svg.figure', (svgs) => svgs.filter((s) => s.getClientRects().length === 0).length), 4, 'the phone drawings are hidden');
  const figures = await page.$$eval('figure svg.figure-wide', (svgs) => svgs.map((svg) => ({
    variant: svg.getAttribute('class'),
    paths: Array.from(svg.querySelectorAll('path')).map((p) => ({ d: p.getAttribute('d') ?? '', box: p.getBoundingClientRect().width + p.getBoundingClientRect().height })),
    bars: Array.from(svg.querySelectorAll('path.bar')).map((p) => p.getBoundingClientRect().width),
    name: svg.getAttribute('aria-label') ?? '',
  })));
  assert.deepEqual(figures.map((f) => f.variant), ['figure-wide figure-connection', 'figure-wide figure-conversation', 'figure-wide figure-growth', 'figure-wide figure-analysis']);
  for (const f of figures) {
    assert.ok(f.paths.length >= 2 && f.paths.every((p) => p.d.length > 3 && p.box > 0), `${f.variant} draws its paths`);
    assert.ok(f.bars.length > 0 && f.bars.every((w) => w > 0), `${f.variant} has visible bars`);
    assert.ok(f.name.length > 20, 'named for screen readers');
  }
  await page.context().close();
});

test('no request leaves the file (and the check catches one that does)', async () => {
  for (const url of [matchingUrl, reportUrl]) {
    const { page, requests } = await open(url, 1000);
    assert.deepEqual(requests, [url]);
    const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.getAttribute('content'));
    assert.match(csp ?? '', /default-src 'none'/);
    assert.equal(await page.$$eval('script, link, img, iframe, object', (x) => x.length), 0);
    await page.context().close();
  }
  const leaky = write('leaky.html', '<!doctype html><html lang="en"><title>x</title><img alt="" src="http://127.0.0.1:9/x.png"></html>');
  const { page, requests } = await open(leaky, 1000);
  assert.ok(requests.some((r) => r.startsWith('http://127.0.0.1:9/')), 'a reference out of the file is seen');
  await page.context().close();
});

test('readable at 390 px: no sideways scrolling, text at least 14 px, figure text at least 12 px', async () => {
  for (const url of [matchingUrl, reportUrl]) {
    const { page } = await open(url, 390);
    const m = await page.evaluate(() => {
      const html = Array.from(document.querySelectorAll('h1, h2, h3, p, figcaption')).map((e) => parseFloat(getComputedStyle(e).fontSize));
      // The drawings shown at this width (each figure's wide drawing is hidden on a phone).
      const svg = Array.from(document.querySelectorAll('figure svg')).filter((s) => s.getClientRects().length > 0).flatMap((s) => {
        const scale = s.getBoundingClientRect().width / (s as SVGSVGElement).viewBox.baseVal.width;
        return Array.from(s.querySelectorAll('text')).map((t) => parseFloat(t.getAttribute('font-size') ?? '0') * scale);
      });
      const overflowing = Array.from(document.querySelectorAll('body *')).filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName);
      return { scrollWidth: document.documentElement.scrollWidth, html: Math.min(...html), svg: Math.min(...svg), overflowing };
    });
    assert.ok(m.scrollWidth <= 390, `page is ${m.scrollWidth} px wide`);
    assert.deepEqual(m.overflowing, []);
    assert.ok(m.html >= 14, `smallest text ${m.html} px`);
    assert.ok(m.svg >= 12, `smallest figure text ${m.svg.toFixed(1)} px`);
    if (process.env.UPDATE_DOCS === '1' && url === matchingUrl) {
      await page.screenshot({ path: new URL('../../../docs/results-report-390.png', import.meta.url).pathname, fullPage: false });
      await page.locator('figure.illustration-conversation').screenshot({ path: new URL('../../../docs/results-figure-390.png', import.meta.url).pathname });
    }
    await page.context().close();
  }
});

test('printable: a PDF of several pages, figures kept whole', async () => {
  const { page } = await open(matchingUrl, 1000);
  await page.emulateMedia({ media: 'print' });
  // Printed, each figure is its wide drawing (a phone drawing would print at a phone's size or blown up).
  assert.deepEqual(await page.$$eval('figure svg', (svgs) => svgs.filter((s) => s.getClientRects().length > 0).map((s) => s.classList[0])), ['figure-wide', 'figure-wide', 'figure-wide', 'figure-wide']);
  const pdf = await page.pdf({ format: 'A4' });
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.ok(pages >= 2, `${pages} pages`);
  assert.equal(await page.$$eval('figure', (fs) => fs.filter((f) => getComputedStyle(f).breakInside !== 'avoid').length), 0);
  await page.context().close();
});

test('no serious or critical axe-core violation', async () => {
  for (const url of [matchingUrl, reportUrl]) {
    const { page } = await open(url, 390);
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> } }).axe;
      const result = await axe.run(document);
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    assert.deepEqual(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), [], JSON.stringify(violations));
    await page.context().close();
  }
  // The check can fail: text too faint to read is a serious violation.
  const faint = write('faint.html', '<!doctype html><html lang="en"><title>x</title><main><p style="color:#ddd">faint</p></main></html>');
  const { page } = await open(faint, 390);
  await page.evaluate(axeSource);
  const ids = await page.evaluate(async () => ((await (window as unknown as { axe: { run(d: Document): Promise<{ violations: { id: string }[] }> } }).axe.run(document)).violations.map((v) => v.id)));
  assert.ok(ids.includes('color-contrast'));
  await page.context().close();
});
