// What a new user meets in the dashboard in their first hour (issue 33), in Debian's chromium
// against a real service: no console error on any page load (the favicon), the recording header
// in words ("asked for exactly 20 speakers", not raw JSON), the analysis's warning when the speech
// cannot give the speakers asked for, no stale "queued" note once a re-analysis ended, the units
// explained, long names whole beside the timeline, the downloads of a recording (RTTM, WebVTT,
// SRT, measurements CSV) and of a result (the HTML report, with the pair's shared turns drawn as
// in the page), and figures whose headings are not cut.
// Screenshots at laptop and phone width go to packages/dashboard/screenshots/ (first-hour-*).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startService } from '@rapport/server';
import { buildDashboard } from '../src/build.ts';
import { CHROMIUM, LAPTOP, checkPage, conversationWav, launch } from './browser.ts';

const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
const LONG_NAME = 'Ilse from the illets-cs-small interview';

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const failedAssets: string[] = [];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'service-api-key': service.apiKey, ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as T;
}

interface MediaJson { id: string; analysis: { status: string; speakers: { index: number; entityId: string | null }[]; warnings: { code: string }[] } }

async function settled(id: string): Promise<MediaJson> {
  for (const until = Date.now() + 300_000; Date.now() < until; ) {
    const m = await api<MediaJson>('GET', `/v1/files/${id}`);
    if (m.analysis.status === 'ready' || m.analysis.status === 'failed') return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`analysis of ${id} did not end`);
}

async function download(name: RegExp): Promise<{ filename: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).first().click()]);
  const stream = await d.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return { filename: d.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}

before(async () => {
  if (skip) return;
  await buildDashboard();
  service = await startService({ env: { ANALYSIS_SCHEDULING: 'normal', RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_JOB_STATUS: '1000', RATE_LIMIT_FILES: '1000', RATE_LIMIT_ENTITIES: '1000' } });
  browser = await launch();
  page = await browser.newPage({ viewport: LAPTOP, acceptDownloads: true });
  page.setDefaultTimeout(15_000);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('response', (r) => {
    if (!new URL(r.url()).pathname.startsWith('/v1/') && r.status() >= 400) failedAssets.push(`${r.status()} ${r.url()}`);
  });
});
after(async () => {
  await browser?.close();
  await service?.close();
});

test('the first hour in the dashboard', { skip, timeout: 240_000 }, async (t) => {
  let mediaId = '';
  // The speaker whose person gets the long name, and that person.
  let labelled = -1;
  let first = '';
  await t.test('no console error and no missing asset when the page loads (the favicon)', async () => {
    await page.goto(service.url);
    await page.getByLabel('API key').fill(service.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Recordings', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Recordings', level: 1 }).waitFor();
    assert.deepEqual(failedAssets, []);
    assert.deepEqual(consoleErrors, []);
  });

  await t.test('a recording asked for more speakers than it holds: the header in words, and the warning', async () => {
    const form = new FormData();
    form.set('numSpeakers', '20');
    form.set('file', new Blob([new Uint8Array(conversationWav(24, [120, 210]))], { type: 'audio/wav' }), 'standup.wav');
    mediaId = (await api<MediaJson>('POST', '/v1/files', form)).id;
    const m = await settled(mediaId);
    assert.equal(m.analysis.status, 'ready');
    // Asked for 20, the analysis splits the two voices into many short speakers; the longest ones
    // have enough speech for a person of their own (decisions §16).
    labelled = m.analysis.speakers.findIndex((s) => s.entityId !== null);
    first = m.analysis.speakers[labelled]?.entityId ?? '';
    assert.ok(first, JSON.stringify(m.analysis.speakers));
    await api('PATCH', `/v1/entities/${first}`, { label: LONG_NAME });
    await page.goto(`${service.url}/#/recordings/${mediaId}`);
    await page.getByRole('heading', { name: 'standup.wav' }).waitFor();
    const meta = await page.locator('p.meta').innerText();
    assert.match(meta, /asked for exactly 20 speakers/);
    assert.doesNotMatch(meta, /numSpeakers/);
    if (m.analysis.speakers.length !== 20) {
      assert.deepEqual(m.analysis.warnings.map((w) => w.code), ['hint_not_met']);
      assert.match(await page.getByRole('note').first().innerText(), /Speaker count not met: exactly 20 speakers were asked for/);
    }
    // A long name stands whole beside the timeline (in its column, with its tooltip).
    const name = page.locator('.timeline text.name').nth(labelled);
    assert.equal(await name.evaluate((e) => e.childNodes[0]?.textContent), LONG_NAME);
    const box = await name.boundingBox();
    const svg = await page.locator('.timeline svg').boundingBox();
    assert.ok(box && svg && box.x >= svg.x, `the name starts inside the figure (${JSON.stringify(box)} in ${JSON.stringify(svg)})`);
    // The units are explained where they are shown.
    const legend = page.getByRole('definition').filter({ hasText: /decibels below the loudest level/ });
    await legend.waitFor();
    assert.match(await page.locator('dl.legend').innerText(), /syllables\/s[\s\S]*Hz[\s\S]*semitones[\s\S]*dBFS/);
    await checkPage(page, 'first-hour-recording-warning');
  });

  await t.test('the recording\'s downloads: RTTM, WebVTT, SRT and the measurements as CSV, every speaker named as on the page', async () => {
    const rttm = await download(/^RTTM$/);
    assert.equal(rttm.filename, 'standup.rttm');
    assert.match(rttm.text, new RegExp(`^SPEAKER ${mediaId} 1 [\\d.]+ [\\d.]+ <NA> <NA> (${LONG_NAME.replace(/ /g, '_')}|Speaker_\\d+) <NA> <NA>$`, 'm'));
    assert.match((await download(/^WebVTT$/)).text, /^WEBVTT\n\n1\n/);
    assert.match((await download(/^SRT$/)).text, /^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    const csv = await download(/^Measurements \(CSV\)$/);
    assert.equal(csv.filename, 'standup-metrics.csv');
    assert.match(csv.text, /^media,speaker,speaker index \(from 0\),entity,speech \(s\),/);
    assert.match(csv.text, new RegExp(`^${mediaId},${LONG_NAME},${labelled},${first}`, 'm'));
  });

  await t.test('after a re-analysis ends, the "queued" note is gone and the header shows the new hints', async () => {
    await page.locator('#re-mode').selectOption('exact');
    await page.locator('#re-num').fill('2');
    await page.getByRole('button', { name: 'Re-analyse' }).click();
    await page.getByText('Analysis queued with these hints.').waitFor();
    await page.locator('p.meta', { hasText: 'asked for exactly 2 speakers' }).waitFor({ timeout: 90_000 });
    await page.locator('p.meta', { hasText: /ready/ }).waitFor({ timeout: 90_000 });
    await page.getByText('Analysis queued with these hints.').waitFor({ state: 'detached' });
    await checkPage(page, 'first-hour-recording');
  });

  await t.test('a result: the HTML report downloads as one file, and no figure heading is cut', async () => {
    const m = await settled(mediaId);
    assert.ok(m.analysis.speakers.length >= 2, `speakers: ${m.analysis.speakers.length}`);
    const member = (i: number) => ({ type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: i } });
    // The re-analysis (exactly 2) kept the long-named person on one of its two speakers.
    const named = m.analysis.speakers.findIndex((s) => s.entityId === first);
    assert.ok(named >= 0, JSON.stringify(m.analysis.speakers));
    const { jobId } = await api<{ jobId: string }>('POST', '/v1/matching/jobs', { context: 'behavioral_compatibility', target: member(named), group: [member(1 - named)] });
    let resultId: string | null = null;
    for (let i = 0; i < 600 && !resultId; i++) {
      const job = await api<{ status: string; resultId: string | null; error: unknown }>('GET', `/v1/jobs/${jobId}`);
      assert.notEqual(job.status, 'failed', JSON.stringify(job.error));
      resultId = job.resultId;
      if (!resultId) await new Promise((r) => setTimeout(r, 100));
    }
    await page.goto(`${service.url}/#/results/matching/${resultId}`);
    await page.locator('.document figure.illustration svg').first().waitFor();
    const html = await download(/^HTML report$/);
    assert.equal(html.filename, `${resultId}.html`);
    assert.match(html.text, /^<!doctype html>/i);
    assert.match(html.text, /<svg[^>]+class="figure figure-connection"/);
    // The shared-turns timeline the dashboard draws is in the report too, drawn by the same renderer.
    const pairSvg = /<svg[^>]+class="pair-timeline-svg"[\s\S]*?<\/svg>/.exec(html.text)?.[0];
    assert.ok(pairSvg, 'the report draws the pair\'s turns');
    await page.locator('.pair-timeline svg.pair-timeline-svg').waitFor();
    const inPage = await page.locator('.pair-timeline svg.pair-timeline-svg').evaluate((e) => e.outerHTML);
    const rects = (svg: string) => [...svg.matchAll(/<rect[^>]*>/g)].map((m) => m[0].replace(/\s*\/?>$/, '').replace(/\s+/g, ' '));
    assert.deepEqual(rects(inPage), rects(pairSvg), 'the same turns and overlaps in the page and in the report');
    const texts = await page.locator('.document svg.figure text').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    assert.ok(texts.some((x) => x.includes(LONG_NAME.split(' ')[0] ?? '')), texts.join(' | '));
    assert.ok(!texts.some((x) => x.endsWith('…')), `cut: ${texts.filter((x) => x.endsWith('…')).join(' | ')}`);
    assert.ok(await page.getByRole('button', { name: /^RTTM of the recording$/ }).count() === 1);
    await checkPage(page, 'first-hour-result');
    assert.deepEqual(consoleErrors, [], 'no console error on any page');
    assert.deepEqual(failedAssets, []);
  });
});
