// The dashboard's layout at a phone, a tablet and a laptop width (issue 40 item 8), in Debian's
// chromium against a real service, by measurement: the page never scrolls sideways, and every
// table or timeline wider than its box sits in a scroll region (focusable, named) whose cue
// ("scroll →") is visible on screen and whose overflowing side is shaded; a region that does not
// overflow shows no cue; the arrow keys scroll it, and at its far end the cue turns ("← scroll").
// Before, the timeline and the tables were cut off at a phone's right edge with nothing to say
// that they scroll. A full-page screenshot of each page at each width goes to $SCREENSHOT_DIR
// (else a fresh temporary folder); the test prints the paths.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startService } from '@rapport/server';
import { buildDashboard } from '../src/build.ts';
import { CHROMIUM, LAPTOP, assertAccessible, launch, signIn, uploadTranscript } from './browser.ts';
import { TWO_NAMES_VTT as VTT } from '../../server/src/files/files.fixtures.testkit.ts';

const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
const WIDTHS = [390, 768, 1280] as const;

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
let shots: string;
const pageErrors: string[] = [];

before(async () => {
  if (skip) return;
  await buildDashboard();
  service = await startService({ env: { RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000', RATE_LIMIT_ENTITIES: '1000' } });
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

async function settle(): Promise<void> {
  // Two frames: the regions measure themselves after layout (ResizeObserver), then draw the cue.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('at 390, 768 and 1280 px nothing is cut off: wide tables and the timeline scroll in place with a visible cue', { skip, timeout: 180_000 }, async () => {
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
      if (width === 390 && p.name === 'recording') {
        // The recording timeline and the speakers table are what a phone cut off.
        assert.ok(m.wide.some((w) => w.what === 'the timeline'), `${at}: the timeline is wider than a phone (${JSON.stringify(m.wide.map((w) => w.what))})`);
        await assertAccessible(page, 'recording with scroll regions (phone)');
        // The arrow keys scroll the focused region; at the far end the cue points back.
        const region = page.locator('.timeline .scroll-inner');
        await region.focus();
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => (document.querySelector('.timeline .scroll-inner')?.scrollLeft ?? 0) > 0);
        await region.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
        await page.locator('.timeline .scroll-cue', { hasText: '← scroll' }).waitFor();
        assert.equal(await page.locator('.timeline .scroll-region.more-right').count(), 0, 'no shade on the right at the far end');
        await page.screenshot({ path: join(shots, 'dashboard-recording-390-scrolled.png'), fullPage: true });
      }
      if (width === 1280 && p.name === 'recording') await assertAccessible(page, 'recording with scroll regions (laptop)');
    }
  }
  assert.deepEqual(pageErrors, []);
});
