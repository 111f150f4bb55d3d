// The dashboard's layout at a phone, a tablet and a laptop width (issue 40 item 8), in Debian's
// chromium against a real service, by measurement: the page never scrolls sideways, and every
// table wider than its box sits in a scroll region (focusable, named) whose cue ("scroll →") is
// visible on screen and whose overflowing side is shaded; a region that does not overflow shows
// no cue; the arrow keys scroll it, and at its far end the cue turns ("← scroll"). The speaker
// timeline fits every width, a phone's of 375 px too, drawn one unit a pixel (it kept 640 px and
// scrolled sideways), and so are the bar charts of talk share, pace and pitch, their text at least
// 12 px (they were scaled down to about 9 px at 375 px). On an hour-long recording at 375 px, a second-long segment, drawn a
// sliver wide, has a hit area of at least 24 px (WCAG 2.2's minimum target size) that the pointer
// lands on beside it. Before issue 40, the timeline and the tables were cut off at a phone's
// right edge with nothing to say that they scroll. A full-page screenshot of each page at each
// width goes to $SCREENSHOT_DIR (else a fresh temporary folder); the test prints the paths.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startService } from '@rapport/server';
import { buildDashboard } from '../src/build.ts';
import { CHROMIUM, LAPTOP, assertAccessible, launch, signIn, uploadTranscript } from './browser.ts';
import { MIN_HIT } from '../src/figures/hit-areas.ts';
import { TWO_NAMES_VTT as VTT } from '../../server/src/files/files.fixtures.testkit.ts';

const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
const WIDTHS = [375, 390, 768, 1280] as const;

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
let shots: string;
const pageErrors: string[] = [];

before(async () => {
  if (skip) return;
  await buildDashboard();
  service = await startService({ env: { ANALYSIS_SCHEDULING: 'normal', RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000', RATE_LIMIT_ENTITIES: '1000' } });
  browser = await launch();
  page = await browser.newPage({ viewport: LAPTOP });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => pageErrors.push(err.message));
  shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'rapport-layout-'));
  mkdirSync(shots, { recursive: true });
});
after(async () => {
  await browser?.close();
  await service?.close();
});

interface Layout {
  scrollWidth: number;
  innerWidth: number;
  /** Tables and timelines wider than the box they are in. */
  wide: { what: string; width: number; room: number; region: boolean; focusable: boolean; label: string | null; cue: string | null; cueOnScreen: boolean; shaded: boolean }[];
  /** Every scroll region: whether its content overflows and whether it shows a cue. */
  regions: { label: string | null; overflows: boolean; cue: boolean }[];
}

/** Measured in the page (CSS pixels). */
function layout(): Layout {
  const shown = (e: Element | null | undefined): e is HTMLElement => {
    if (!(e instanceof HTMLElement) || e.getClientRects().length === 0) return false;
    const s = getComputedStyle(e);
    return s.visibility === 'visible' && Number(s.opacity) > 0;
  };
  const wide = Array.from(document.querySelectorAll('main table, main .timeline svg')).flatMap((el) => {
    const box = el.parentElement;
    const width = el.getBoundingClientRect().width;
    if (!box || width <= box.clientWidth + 1) return [];
    const inner = el.closest('.scroll-inner');
    const region = inner?.closest('.scroll-region');
    const cue = region?.querySelector(':scope > .scroll-cue');
    const r = cue?.getBoundingClientRect();
    const frame = inner?.parentElement;
    return [{
      what: el.tagName === 'TABLE' ? `table "${el.querySelector('caption')?.textContent ?? ''}"` : 'the timeline',
      width, room: box.clientWidth,
      region: inner instanceof HTMLElement,
      focusable: inner instanceof HTMLElement && inner.tabIndex === 0,
      label: inner?.getAttribute('aria-label') ?? null,
      cue: cue?.textContent ?? null,
      cueOnScreen: shown(cue) && !!r && r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth,
      shaded: !!frame && Number(getComputedStyle(frame, '::after').opacity) > 0,
    }];
  });
  const regions = Array.from(document.querySelectorAll('.scroll-region')).map((region) => {
    const inner = region.querySelector('.scroll-inner') as HTMLElement;
    return { label: inner.getAttribute('aria-label'), overflows: inner.scrollWidth > inner.clientWidth + 1, cue: shown(region.querySelector(':scope > .scroll-cue')) };
  });
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide, regions };
}

/**
 * The speaker timeline as drawn at this width: inside the viewport and its box (nothing to scroll
 * to), one unit a pixel (its 12 px text at 12 px, give or take the border), every segment drawn,
 * every name inside the drawing and the names' column at most 40 % of it, no tick label cut off.
 */
async function assertTimelineFits(at: string): Promise<void> {
  const t = await page.evaluate(() => {
    const svg = document.querySelector('main .timeline svg') as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    const viewBox = svg.viewBox.baseVal;
    const scale = box.width / viewBox.width;
    const rects = (sel: string) => Array.from(svg.querySelectorAll(sel)).map((e) => e.getBoundingClientRect());
    const names = rects('text.name');
    const ticks = rects('text.axis:not(.name)');
    return {
      right: box.right, innerWidth: window.innerWidth, width: box.width, room: svg.parentElement?.clientWidth ?? 0,
      overflows: Array.from(document.querySelectorAll('main *')).some((e) => e.scrollWidth > e.clientWidth + 1 && e.contains(svg) && getComputedStyle(e).overflowX !== 'visible'),
      scale, segments: rects('rect.seg').map((r) => r.width), namesLeft: Math.min(...names.map((r) => r.left)) - box.left,
      namesColumn: -viewBox.x / viewBox.width, ticksInside: ticks.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5), ticks: ticks.length,
    };
  });
  assert.ok(t.right <= t.innerWidth && t.width <= t.room + 0.5, `${at}: the timeline is ${t.width.toFixed(0)} px wide in ${t.room} px (right edge ${t.right.toFixed(0)} of ${t.innerWidth})`);
  assert.equal(t.overflows, false, `${at}: something around the timeline scrolls sideways`);
  assert.ok(t.scale > 0.98 && t.scale < 1.02, `${at}: drawn ${t.scale.toFixed(3)} px a unit, its text not at its size`);
  assert.ok(t.segments.length >= 4 && t.segments.every((w) => w >= 1), `${at}: segments ${JSON.stringify(t.segments)}`);
  assert.ok(t.namesLeft >= 0 && t.namesColumn <= 0.4 + 1e-9, `${at}: names from ${t.namesLeft.toFixed(1)} px, their column ${(t.namesColumn * 100).toFixed(0)} %`);
  assert.ok(t.ticks >= 2 && t.ticksInside, `${at}: ${t.ticks} tick labels, all inside: ${t.ticksInside}`);
}

/**
 * The recording page's bar charts (talk share, pace, pitch) as drawn at this width: their text at
 * least 12 px on screen (they were drawn at a fixed width and scaled to their box, about 9 px at
 * 375 px), and nothing of them past their box, their parent's or the viewport's right edge.
 */
async function assertChartsLegible(at: string): Promise<void> {
  const charts = await page.evaluate(() => Array.from(document.querySelectorAll('main svg.bars')).map((svg) => {
    const box = svg.getBoundingClientRect();
    const texts = Array.from(svg.querySelectorAll('text'));
    const parts = Array.from(svg.querySelectorAll('text, rect')).map((e) => e.getBoundingClientRect());
    return {
      name: (svg.getAttribute('aria-label') ?? '').split(':')[0] ?? '',
      sizes: texts.map((t) => Number.parseFloat(getComputedStyle(t).fontSize) * (t.getScreenCTM()?.a ?? 0)),
      words: texts.map((t) => Array.from(t.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('')),
      inside: parts.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5),
      width: box.width, room: svg.parentElement?.clientWidth ?? 0, right: box.right, innerWidth: window.innerWidth,
    };
  }));
  assert.deepEqual(charts.map((c) => c.name), ['Talk share', 'Pace', 'Median pitch'], `${at}: the recording's charts`);
  for (const c of charts) {
    const says = `${at}: the ${c.name.toLowerCase()} chart`;
    assert.ok(c.sizes.length >= 4 && c.sizes.every((px) => px >= 11.99), `${says}'s text is drawn at ${c.sizes.map((px) => px.toFixed(1)).join(', ')} px (${JSON.stringify(c.words)}), under 12`);
    assert.ok(c.inside, `${says}: part of it is past its edges (${JSON.stringify(c.words)})`);
    assert.ok(c.width <= c.room + 0.5 && c.right <= c.innerWidth, `${says} is ${c.width.toFixed(0)} px wide in ${c.room} px (right edge ${c.right.toFixed(0)} of ${c.innerWidth})`);
  }
}

async function settle(): Promise<void> {
  // Two frames: the regions measure themselves after layout (ResizeObserver), then draw the cue.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('at 375, 390, 768 and 1280 px nothing is cut off: wide tables scroll in place with a visible cue, the timeline and the charts fit', { skip, timeout: 180_000 }, async () => {
  const id = await uploadTranscript(service.url, service.apiKey, VTT, 'a-team-retrospective-with-a-long-name.vtt');
  await signIn(page, service.url, service.apiKey);
  await page.goto(`${service.url}/#/recordings/${id}`);
  const profile = await page.getByRole('link', { name: 'Profile' }).first().getAttribute('href');
  assert.ok(profile, 'a speaker links to their person');

  const pages: { name: string; hash: string; ready: () => Promise<void> }[] = [
    { name: 'recordings', hash: '#/recordings', ready: () => page.locator('main tbody tr').first().waitFor() },
    { name: 'recording', hash: `#/recordings/${id}`, ready: async () => { await page.locator('.timeline svg rect.seg').first().waitFor(); await page.locator('table.voice tbody tr').first().waitFor(); } },
    { name: 'person', hash: profile, ready: () => page.locator('main tbody tr').first().waitFor() },
    { name: 'people', hash: '#/people', ready: () => page.locator('main tbody tr').first().waitFor() },
  ];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    for (const p of pages) {
      await page.goto(`${service.url}/${p.hash}`);
      await p.ready();
      await settle();
      const shot = join(shots, `dashboard-${p.name}-${width}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      console.log(`screenshot: ${shot}`);
      const m = await page.evaluate(layout);
      const at = `${p.name} at ${width} px`;
      assert.ok(m.scrollWidth <= m.innerWidth, `${at}: the page is ${m.scrollWidth} px wide, it scrolls sideways`);
      for (const w of m.wide) {
        const says = `${at}: ${w.what} is ${w.width.toFixed(0)} px wide in ${w.room} px`;
        assert.ok(w.region && w.cueOnScreen, `${says}, cut off at the right edge with no visible cue that it scrolls (cue: ${JSON.stringify(w.cue)})`);
        assert.ok(w.focusable && w.label && /scrolls sideways/.test(w.label), `${says}: its region is focusable and says it scrolls (${JSON.stringify(w.label)})`);
        assert.equal(w.cue, 'scroll →', `${says}: the cue points to the hidden part`);
        assert.ok(w.shaded, `${says}: the right edge is shaded`);
      }
      for (const r of m.regions) assert.equal(r.cue, r.overflows, `${at}: ${r.label}: a cue ${r.cue ? 'shown' : 'missing'} where the content ${r.overflows ? 'overflows' : 'fits'}`);
      if (p.name === 'recording') {
        await assertTimelineFits(at);
        await assertChartsLegible(at);
      }
      if (width === 390 && p.name === 'recording') {
        // The speakers table is what a phone cuts off; the timeline fits.
        assert.ok(m.wide.some((w) => w.what.startsWith('table')) && !m.wide.some((w) => w.what === 'the timeline'), `${at}: ${JSON.stringify(m.wide.map((w) => w.what))}`);
        await assertAccessible(page, 'recording with scroll regions (phone)');
        // The arrow keys scroll the focused region; at the far end the cue points back.
        const region = page.locator('.scroll-region:has(table.speakers)');
        const inner = region.locator('.scroll-inner');
        await inner.focus();
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => (document.querySelector('.scroll-region:has(table.speakers) .scroll-inner')?.scrollLeft ?? 0) > 0);
        await inner.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
        await region.locator('.scroll-cue', { hasText: '← scroll' }).waitFor();
        assert.equal(await page.locator('.scroll-region.more-right:has(table.speakers)').count(), 0, 'no shade on the right at the far end');
        await page.screenshot({ path: join(shots, 'dashboard-recording-390-scrolled.png'), fullPage: true });
      }
      if (width === 1280 && p.name === 'recording') await assertAccessible(page, 'recording with scroll regions (laptop)');
    }
  }
  assert.deepEqual(pageErrors, []);
});

/** Minutes and seconds as a WebVTT time. */
function vttTime(sec: number): string {
  const m = Math.floor(sec / 60);
  return `00:${String(m).padStart(2, '0')}:${(sec - m * 60).toFixed(3).padStart(6, '0')}`;
}

const LONG_NAME = 'Bartholomew Featherstonehaugh-Montgomery';
/**
 * An hour: turns of minutes, a second-long one of Bartholomew's at 30:00 eleven minutes from any
 * other of his (room for a whole hit area), and three of two seconds, 5 s apart, at 45:00.
 */
const HOUR: [string, number, number][] = [
  ['Ana', 0, 240], [LONG_NAME, 300, 540], ['Ana', 600, 840], [LONG_NAME, 900, 1140], ['Ana', 1200, 1700], [LONG_NAME, 1800, 1801],
  ['Ana', 1860, 2400], [LONG_NAME, 2460, 2640], [LONG_NAME, 2700, 2702], [LONG_NAME, 2705, 2707], [LONG_NAME, 2710, 2712],
  ['Ana', 2760, 3300], [LONG_NAME, 3300, 3600],
];
const HOUR_VTT = `WEBVTT\n\n${HOUR.map(([who, from, to]) => `${vttTime(from)} --> ${vttTime(to)}\n<v ${who}>Words of ${who.split(' ')[0]} from ${from} s.\n`).join('\n')}`;

test(`at 375 px a second-long segment of an hour's recording has a hit area of at least ${MIN_HIT} px, without being drawn wider`, { skip, timeout: 60_000 }, async () => {
  const id = await uploadTranscript(service.url, service.apiKey, HOUR_VTT, 'an-hour.vtt');
  await page.setViewportSize({ width: 375, height: 844 });
  await page.goto(`${service.url}/#/recordings/${id}`);
  await page.locator('.timeline svg rect.seg').first().waitFor();
  await settle();
  await page.screenshot({ path: join(shots, 'dashboard-recording-hour-375.png'), fullPage: true });
  const at = 'an hour at 375 px';
  await assertTimelineFits(at);
  await assertChartsLegible(at);
  const g = await page.evaluate(() => {
    const svg = document.querySelector('main .timeline svg') as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    const find = (cls: string, start: number) => svg.querySelector(`rect.${cls}[data-start="${start}"]`) as SVGRectElement;
    const seg = find('seg', 1800);
    const hit = find('seg-hit', 1800);
    const s = seg.getBoundingClientRect();
    const h = hit.getBoundingClientRect();
    const cx = s.left + s.width / 2;
    const cy = s.top + s.height / 2;
    /** What the pointer lands on: its speaker and start, from whichever of the two rects. */
    const under = (dx: number) => {
      const e = document.elementFromPoint(cx + dx, cy);
      return e instanceof SVGRectElement ? `${e.classList[0]} ${e.dataset.speaker} ${e.dataset.start}` : e?.tagName ?? null;
    };
    // Every row's hit areas: none overlaps another more than their bars do, each covers its bar, all inside the drawing.
    const rows = new Map<string, { seg: DOMRect; hit: DOMRect }[]>();
    for (const r of Array.from(svg.querySelectorAll('rect.seg'))) {
      const el = r as SVGRectElement;
      const sp = el.dataset.speaker ?? '';
      const hr = svg.querySelector(`rect.seg-hit[data-speaker="${sp}"][data-start="${el.dataset.start}"]`);
      if (!hr) return { missing: el.dataset.start };
      rows.set(sp, [...(rows.get(sp) ?? []), { seg: el.getBoundingClientRect(), hit: hr.getBoundingClientRect() }]);
    }
    const overlap = (a: DOMRect, b: DOMRect) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
    const bad: string[] = [];
    for (const [sp, list] of rows) {
      list.forEach((a, i) => {
        if (a.hit.left > a.seg.left + 0.01 || a.hit.right < a.seg.right - 0.01) bad.push(`${sp}#${i} does not cover its bar`);
        if (a.hit.left < box.left - 0.5 || a.hit.right > box.right + 0.5) bad.push(`${sp}#${i} is outside the drawing`);
        list.forEach((b, j) => {
          if (j > i && overlap(a.hit, b.hit) > overlap(a.seg, b.seg) + 0.01) bad.push(`${sp}#${i} and #${j} overlap`);
        });
      });
    }
    return {
      missing: null, bad, spanPx: find('seg', 300).getBoundingClientRect().width / 240, drawn: s.width, hitWidth: h.width, hitHeight: h.height,
      centre: under(0), left: under(-10), right: under(10), speaker: seg.dataset.speaker,
      role: seg.getAttribute('role'), segTitle: seg.querySelector('title')?.textContent, hitTitle: hit.querySelector('title')?.textContent,
      hitHidden: hit.getAttribute('aria-hidden'), hitFocusable: hit.hasAttribute('tabindex'), label: seg.getAttribute('aria-label'),
    };
  });
  assert.equal(g.missing, null, `${at}: no hit area for the segment at ${g.missing} s`);
  assert.deepEqual(g.bad, [], `${at}: hit areas`);
  // Drawn no wider than its second (a 1.5 px sliver at least), reached on a hit area of MIN_HIT by a row.
  assert.ok(g.drawn! <= Math.max(1.5, g.spanPx) + 0.01, `${at}: the 1 s segment is drawn ${g.drawn} px wide (its second is ${g.spanPx!.toFixed(2)} px)`);
  assert.ok(g.hitWidth! >= MIN_HIT - 0.01 && g.hitHeight! >= MIN_HIT, `${at}: its hit area is ${g.hitWidth!.toFixed(1)} by ${g.hitHeight!.toFixed(1)} px`);
  // The pointer lands on it there: the bar under its middle, its hit area 10 px either side.
  assert.equal(g.centre, `seg ${g.speaker} 1800`, `${at}: under the bar's middle`);
  assert.equal(g.left, `seg-hit ${g.speaker} 1800`, `${at}: 10 px left of the bar`);
  assert.equal(g.right, `seg-hit ${g.speaker} 1800`, `${at}: 10 px right of the bar`);
  // Its tooltip is the bar's; the keyboard and screen readers reach the bar as before, not the hit area.
  assert.equal(g.role, 'img');
  assert.ok(g.label && g.segTitle === g.label && g.hitTitle === g.label, `${at}: tooltips ${JSON.stringify([g.label, g.segTitle, g.hitTitle])}`);
  assert.equal(g.hitHidden, 'true');
  assert.equal(g.hitFocusable, false);
  // The transcript's list is taller than its box here: with no audio to play it has no button,
  // so the list itself takes the focus that lets a keyboard scroll it (scrollable-region-focusable).
  await assertAccessible(page, at);
  assert.deepEqual(pageErrors, []);
});
