// Decisions §19 in the dashboard: a WebVTT uploaded on its own opens on a recording page that shows
// its speakers and the figures measured from its cues (speech, share, turns), its timeline and
// words, and says that the voice's figures are not measured for want of audio. Before, the page
// was blank.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startService } from '@rapport/server';
import { buildDashboard } from '../src/build.ts';
import { CHROMIUM, LAPTOP, assertAccessible, launch, signIn, uploadTranscript } from './browser.ts';
import { TWO_NAMES_VTT as VTT } from '../../server/src/files/files.fixtures.testkit.ts';

const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;

// Ana speaks 0.5–4.5 and 9.3–13.3 (8 s), Ben 4–8.9 and 13.7–17.7 (8.9 s).

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  if (skip) return;
  await buildDashboard();
  service = await startService({ env: { ANALYSIS_SCHEDULING: 'normal', RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000' } });
  browser = await launch();
  page = await browser.newPage({ viewport: LAPTOP });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => pageErrors.push(err.message));
});
after(async () => {
  await browser?.close();
  await service?.close();
});

test('a transcript on its own: its recording page shows its speakers and the figures of its cues', { skip, timeout: 120_000 }, async () => {
  const id = await uploadTranscript(service.url, service.apiKey, VTT, 'trip.vtt');
  await signIn(page, service.url, service.apiKey);
  await page.goto(`${service.url}/#/recordings/${id}`);
  await page.getByRole('heading', { name: 'Speakers' }).waitFor();

  const rows = page.locator('section', { has: page.getByRole('heading', { name: 'Speakers' }) }).locator('tbody tr');
  assert.equal(await rows.count(), 2);
  const ana = await rows.nth(0).innerText();
  const ben = await rows.nth(1).innerText();
  assert.match(ana, /Ana/);
  assert.match(ben, /Ben/);
  // Speech and share from the cue times: 8 s of 16.9 s, 8.9 s of 16.9 s; two turns each.
  // Share in %, as the column's header says (measures.ts: one format on every surface).
  assert.match(ana, /\t47\t/);
  assert.match(ben, /\t53\t/);
  assert.match(ana, /\t2\t/);
  // Each is a person (an entity by name): a profile link.
  assert.equal(await rows.locator('a', { hasText: 'Profile' }).count(), 2);
  // The timeline and the words, and the voice's figures not measured, with the reason.
  await page.getByRole('heading', { name: 'Timeline' }).waitFor();
  await page.locator('.transcript li', { hasText: 'Hello Ben, how was the trip?' }).waitFor();
  const note = await page.locator('.not-measured').innerText();
  assert.match(note, /not measured \(no audio\)/);
  assert.match(await page.locator('table.voice tbody tr').first().locator('td[data-measure="pitchMedianHz"]').innerText(), /not measured/);
  await assertAccessible(page, 'recording-transcript-alone');
  assert.deepEqual(pageErrors, []);
});
