// The dashboard end to end in Debian's chromium against a real service: sign in, upload two
// generated conversations and watch their analysis stages live (the media event stream, no
// polling), open a timeline and play a speaker's stretch streamed from the service (a content
// link: range requests, the key in no URL), read pace and pitch, label a speaker, run a matching
// job from the pickers and read its rendered result (the four illustrations, the same figures as
// the HTML report), see jobs, rotate the signing secret, redeliver a webhook, create and revoke a
// key, merge two people, attach a transcript and see it aligned to the timeline, and the errors
// (with their request ids) of an unknown recording and of the revoked key. axe-core checks every
// page at laptop and phone width.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startService } from '@rapport/server';
import { measureOf, measuresTable, type MediaMeasures } from '@rapport/analysis/render';
import { buildDashboard } from '../src/build.ts';
import { CHROMIUM, LAPTOP, SCREENSHOTS, assertAccessible, checkPage, conversationVtt, conversationWav, launch } from './browser.ts';

const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
let hookUrl: string;
const hooks: string[] = [];
const pageErrors: string[] = [];
/** Every /v1 request the page made (method and path with query), and the content answers. */
const requests: string[] = [];
const contentAnswers: { url: string; status: number; range: string | null }[] = [];
const hookServer = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    hooks.push(body);
    res.writeHead(200).end('ok');
  });
});

before(async () => {
  if (skip) return;
  await buildDashboard();
  service = await startService({ env: { ANALYSIS_SCHEDULING: 'normal', RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_JOB_STATUS: '1000', RATE_LIMIT_FILES: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
  browser = await launch();
  page = await browser.newPage({ viewport: LAPTOP });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/v1/')) requests.push(`${r.method()} ${u.pathname}${u.search}`);
  });
  page.on('response', (r) => {
    if (r.url().includes('/content?token=')) contentAnswers.push({ url: r.url(), status: r.status(), range: r.headers()['content-range'] ?? null });
  });
});
after(async () => {
  await browser?.close();
  hookServer.close();
  await service?.close();
});

async function signIn(key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('the dashboard, end to end', { skip, timeout: 240_000 }, async (t) => {
  // Each step needs the ones before: after a failure the rest are skipped, not timed out.
  let broken = false;
  const step = (name: string, fn: () => Promise<void>) => t.test(name, { skip: broken ? 'an earlier step failed' : false }, async () => {
    try {
      await fn();
    } catch (err) {
      broken = true;
      await page.screenshot({ path: `${SCREENSHOTS}failure.png`, fullPage: true }).catch(() => undefined);
      throw new Error(`${(err as Error).message}\npage errors: ${pageErrors.join(' | ') || 'none'}`, { cause: err });
    }
  });

  await step('sign in, and the key stays out of the URL and localStorage', async () => {
    await page.goto(service.url);
    await page.getByLabel('API key').waitFor();
    await checkPage(page, 'signin');
    await signIn('rk_not_a_key');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /UNAUTHENTICATED[\s\S]*Request id: req_[A-Za-z0-9]{24}/);
    await signIn(service.apiKey);
    await page.getByRole('heading', { name: 'Recordings', level: 1 }).waitFor();
    assert.ok(!page.url().includes(service.apiKey));
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('rapport.apiKey')), service.apiKey);
  });

  await step('upload two conversations with a hint and watch their analysis stages live', async () => {
    const before = requests.length;
    await page.getByLabel('Speakers', { exact: true }).selectOption('exact');
    await page.getByLabel('Number of speakers').fill('2');
    await page.getByLabel('Choose files').setInputFiles([
      { name: 'standup.wav', mimeType: 'audio/wav', buffer: conversationWav(24, [120, 210]) },
      { name: 'retro.wav', mimeType: 'audio/wav', buffer: conversationWav(20, [150, 240], 3, 0.7) },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem');
    assert.equal(await uploads.count(), 2);
    await page.getByRole('link', { name: /ready · 2 speakers/ }).nth(1).waitFor({ timeout: 90_000 });
    for (const bar of await page.locator('.uploads progress[aria-label^="Upload of"]').all()) {
      assert.equal(await bar.getAttribute('value'), await bar.getAttribute('max'), 'each progress bar ends full');
    }
    // The stages came from the media event stream: queued, at least the first running stage, ready.
    for (const stages of await page.locator('.uploads .stages').all()) {
      const seen = (await stages.getAttribute('data-seen'))?.split(' ') ?? [];
      assert.equal(seen[0], 'queued', `stages seen: ${seen.join(' ')}`);
      assert.ok(seen.includes('detecting_speech'), `stages seen: ${seen.join(' ')}`);
      assert.equal(seen.at(-1), 'ready', `stages seen: ${seen.join(' ')}`);
      assert.equal(await stages.locator('li.done').count(), 5, 'every stage ticked');
    }
    const made = requests.slice(before);
    assert.ok(requests.includes('GET /v1/files/events'), `the page follows the media event stream (requests: ${requests.join(', ')})`);
    assert.deepEqual(made.filter((r) => /^GET \/v1\/files\/med_[^/?]+$/.test(r)), [], 'no media was polled');
    await page.getByRole('cell', { name: 'retro.wav' }).waitFor();
    await checkPage(page, 'recordings');
  });

  await step('a recording: timeline, play a speaker’s stretch, label a speaker', async () => {
    await page.getByRole('link', { name: 'standup.wav' }).first().click();
    await page.getByRole('heading', { name: 'standup.wav' }).waitFor();
    const seg = page.locator('rect.seg[role=button][data-speaker]').nth(1);
    await seg.waitFor();
    const start = Number(await seg.getAttribute('data-start'));
    const end = Number(await seg.getAttribute('data-end'));
    // The loudness envelope, decoded from the file the service serves.
    await page.locator('.timeline path.envelope').waitFor();
    // The element streams the upload from the service through a content link, never with the key.
    const src = await page.locator('audio').getAttribute('src');
    assert.match(src ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1\/files\/med_[A-Za-z0-9]+\/content\?token=rl_[A-Za-z0-9]{40}$/);
    assert.ok(!src?.includes(service.apiKey));
    await seg.click();
    await page.waitForFunction((s) => {
      const a = document.querySelector('audio');
      return !!a && !a.paused && a.readyState >= 2 && a.currentTime > s;
    }, start, { timeout: 10_000 });
    // It stops by itself at the end of the stretch, having played it.
    await page.waitForFunction(() => {
      const a = document.querySelector('audio');
      return !!a && a.paused && !a.dataset.stopAt;
    }, undefined, { timeout: 15_000 });
    const played = await page.evaluate(() => {
      const a = document.querySelector('audio') as HTMLAudioElement;
      return { ranges: Array.from({ length: a.played.length }, (_, i) => [a.played.start(i), a.played.end(i)]), at: a.currentTime, error: a.error?.code ?? null };
    });
    assert.equal(played.error, null);
    assert.ok(played.ranges.some(([from, to]) => (from as number) <= start + 0.3 && (to as number) >= end - 0.3), `played ${JSON.stringify(played.ranges)} covers ${start}–${end}`);
    assert.ok(played.at >= end - 0.3, `stopped at ${played.at}, the stretch ends at ${end}`);
    // The service answered the element's range requests.
    assert.ok(contentAnswers.some((a) => a.status === 206 && /^bytes \d+-\d+\/\d+$/.test(a.range ?? '')), `content answers: ${JSON.stringify(contentAnswers.map((a) => [a.status, a.range]))}`);
    // A bar's invisible hit area (at least 24 px wide, for short bars: figures/hit-areas.ts, measured
    // on a long recording by layout.e2e.test.ts) plays its stretch as the bar does.
    const hit = page.locator('rect.seg-hit.playable[data-speaker]').nth(2);
    const hitStart = Number(await hit.getAttribute('data-start'));
    await hit.dispatchEvent('click');
    await page.locator(`rect.seg[aria-pressed="true"][data-start="${hitStart}"]`).waitFor();
    await page.waitForFunction((s) => {
      const a = document.querySelector('audio');
      return !!a && !a.paused && a.currentTime >= s;
    }, hitStart, { timeout: 10_000 });
    await page.evaluate(() => document.querySelector('audio')?.pause());
    // Pace and pitch of each speaker, from the API's measurements.
    const voice = page.getByRole('table', { name: /Voice and pace/ });
    await voice.waitFor();
    assert.equal(await voice.locator('tbody tr').count(), 2);
    for (const cell of await voice.locator('td[data-measure="pitchMedianHz"]').all()) assert.match(await cell.innerText(), /^\d+$/);
    assert.match(await voice.locator('td[data-measure="speakingRateSylPerSec"]').first().innerText(), /^\d+\.\d$/);
    // Issue 40 item 5: every figure on the page is the API's, named and rounded as the CLI's table
    // (measuresTable, the same list as the CSV's headers): nothing recomputed from the diarization.
    const mediaId = /#\/recordings\/(med_[A-Za-z0-9]+)/.exec(page.url())?.[1];
    assert.ok(mediaId, page.url());
    const apiMetrics = await (await fetch(`${service.url}/v1/files/${mediaId}/metrics`, { headers: { 'service-api-key': service.apiKey } })).json() as MediaMeasures;
    const cliTable = measuresTable(apiMetrics.speakers.map((sp) => `Speaker ${sp.index + 1}`), apiMetrics.speakers.map((sp) => sp.metrics));
    for (const table of [page.locator('table.speakers'), voice]) {
      for (const cell of await table.locator('td[data-measure]').all()) {
        const measure = measureOf((await cell.getAttribute('data-measure')) ?? '');
        const speaker = Number(await cell.locator('xpath=..').getAttribute('data-speaker'));
        const text = await cell.innerText();
        if (text === 'no transcript') continue;
        const cli = cliTable.find((row) => row[0] === measure.header)?.[speaker + 1];
        assert.equal(text, cli === '-' ? 'not measured' : cli, `${measure.header} of Speaker ${speaker + 1}: the dashboard shows what the CLI shows`);
      }
      for (const head of await table.locator('th[data-measure]').all()) {
        const text = (await head.textContent()) ?? '';
        assert.equal(text.charAt(0).toLowerCase() + text.slice(1), measureOf((await head.getAttribute('data-measure')) ?? '').header, 'one name and unit per figure');
      }
    }
    assert.ok(await page.locator('table.speakers td[data-measure="medianTurnSec"]').count() > 0, 'the speakers table shows the median turn');
    assert.equal(await page.getByRole('columnheader', { name: /Mean turn|Pause before a turn/ }).count(), 0, 'no figure of the dashboard\'s own');
    const name = page.getByLabel('Name of Speaker 1');
    await name.fill('Ann');
    await name.locator('xpath=..').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: 'Ann' }).first().waitFor();
    await checkPage(page, 'recording');
  });

  await step('matching from the pickers, live progress, the rendered result, feedback', async () => {
    await page.getByRole('link', { name: 'Match Ann' }).click();
    await page.getByRole('heading', { name: 'Matching and reports' }).waitFor();
    await page.locator('#target-speaker option').first().waitFor({ state: 'attached' });
    assert.equal(await page.locator('#target-media').inputValue() !== '', true);
    // Member 1 comes preset from the timeline link: the other voice of the same recording.
    assert.equal(await page.locator('#group-0-media').inputValue(), await page.locator('#target-media').inputValue());
    assert.equal(await page.locator('#group-0-speaker').inputValue(), '1');
    await page.getByRole('button', { name: 'Add a member' }).click();
    // Recordings are offered with their duration and upload time, so that two of one filename differ (issue 40 item 7).
    const retro = page.locator('#group-1-media option', { hasText: /^retro\.wav · / });
    assert.match(await retro.innerText(), /^retro\.wav · 0:\d\d\.\d · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    await page.locator('#group-1-media').selectOption((await retro.getAttribute('value')) ?? '');
    // The last voice offered (a voice with too little speech to judge is not offered, decisions §16).
    const voices = await page.locator('#group-1-speaker option').count();
    await page.locator('#group-1-speaker').selectOption({ index: voices - 1 });
    await page.getByLabel('Label (optional)').fill('Ann and the retro');
    await page.getByLabel('Webhook URL (optional)').fill(hookUrl);
    await checkPage(page, 'matching');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.document').waitFor({ timeout: 60_000 });
    assert.match(page.url(), /#\/results\/matching\/mat_/);
    const variants = await page.locator('figure.illustration').evaluateAll((els) => els.map((e) => e.getAttribute('data-variant')));
    assert.deepEqual([...new Set(variants)].sort(), ['analysis', 'connection', 'conversation', 'growth']);
    // Each is drawn by the shared renderer, exactly as in the HTML report of the same result.
    const resultId = /mat_[A-Za-z0-9]+/.exec(page.url())?.[0] ?? '';
    const report = await (await fetch(`${service.url}/v1/matching/${resultId}/html`, { headers: { 'service-api-key': service.apiKey } })).text();
    // The page draws them as wide as its column (one unit a pixel), the report at phone width: the
    // same figure is the same description and the same bars, each as a share of the width.
    const figures = (root: ParentNode) => Array.from(root.querySelectorAll('svg.figure')).map((svg) => {
      const width = Number(svg.getAttribute('viewBox')?.split(' ')[2]);
      return {
        variant: Array.from(svg.classList).find((c) => c.startsWith('figure-')),
        label: svg.getAttribute('aria-label'),
        bars: Array.from(svg.querySelectorAll('path.bar')).map((p) => Math.round((Number(/h([\d.]+)/.exec(p.getAttribute('d') ?? '')?.[1]) / width) * 100)),
        paths: svg.querySelectorAll('path').length,
      };
    });
    const inDashboard = await page.evaluate(`(${figures.toString()})(document.querySelector('.document'))`) as ReturnType<typeof figures>;
    const inReport = await page.evaluate(`(${figures.toString()})(new DOMParser().parseFromString(${JSON.stringify(report)}, 'text/html'))`) as ReturnType<typeof figures>;
    assert.ok(inDashboard.length >= 4, `figures drawn: ${inDashboard.map((f) => f.variant).join(', ')}`);
    assert.deepEqual(new Set(inDashboard.map((f) => f.variant)), new Set(['figure-connection', 'figure-conversation', 'figure-growth', 'figure-analysis']));
    assert.deepEqual(inDashboard, inReport, 'the dashboard draws the report’s figures');
    // The conversation figure also shows the pair's turns on their shared recording.
    await page.locator('.pair-timeline svg rect').first().waitFor();
    assert.ok(await page.locator('.card svg').count() > 0, 'cards carry their icons');
    await page.getByLabel('4', { exact: true }).check();
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await page.getByText(/feedback fb_/).waitFor();
    await checkPage(page, 'result');
  });

  await step('jobs list, with its status filter', async () => {
    await page.getByRole('link', { name: 'Jobs' }).click();
    const row = page.locator('tr[data-job]').first();
    await row.waitFor();
    assert.match(await row.innerText(), /Ann and the retro[\s\S]*succeeded/);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No jobs with status failed.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await checkPage(page, 'jobs');
  });

  let newKey = '';
  await step('workspace: secret rotation, redelivery, keys', async () => {
    await page.getByRole('link', { name: 'Workspace' }).click();
    await page.getByRole('button', { name: 'Reveal' }).click();
    const before = await page.locator('#signing-secret').innerText();
    await page.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    await page.waitForFunction((b) => document.querySelector('#signing-secret')?.textContent !== b, before);
    assert.notEqual(await page.locator('#signing-secret').innerText(), before);

    // The job's webhook was delivered; redeliver it and see one more attempt.
    const delivery = page.locator('li.delivery').first();
    for (let i = 0; i < 50 && !(await delivery.count() && /succeeded/.test(await delivery.innerText())); i++) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(200);
    }
    assert.match(await delivery.innerText(), /succeeded, 1 attempt/);
    const received = hooks.length;
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    for (let i = 0; i < 50 && !/2 attempts/.test(await page.locator('li.delivery').first().innerText()); i++) {
      await page.waitForTimeout(200);
      await page.getByRole('button', { name: 'Refresh' }).click();
    }
    assert.match(await page.locator('li.delivery').first().innerText(), /2 attempts/);
    assert.equal(hooks.length, received + 1);
    await page.locator('li.delivery').first().getByRole('button', { name: 'Attempts' }).click();
    await page.getByRole('table', { name: /Attempts of dlv_/ }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('e2e key');
    await page.getByRole('button', { name: 'Create key' }).click();
    newKey = (await page.locator('#new-key').innerText()).trim();
    assert.match(newKey, /^rk_/);
    await checkPage(page, 'workspace');
  });

  await step('people: merge two, then a person’s page', async () => {
    await page.getByRole('link', { name: 'People' }).click();
    const boxes = page.getByRole('checkbox');
    await boxes.first().waitFor();
    const count = await boxes.count();
    assert.ok(count >= 2, `people found: ${count}`);
    // Ann first (the one kept), then someone else.
    await page.getByRole('checkbox', { name: 'Select Ann' }).check();
    await page.getByRole('checkbox', { name: /^Select (?!Ann$)/ }).first().check();
    await page.getByRole('button', { name: /Merge 2 people/ }).click();
    await page.getByText(/Merged into/).waitFor();
    // The list is read again after the merge: one person fewer.
    await page.waitForFunction((n) => document.querySelectorAll('main input[type=checkbox]').length === n, count - 1);
    await checkPage(page, 'people');
    await page.getByRole('link', { name: 'Ann' }).click();
    await page.getByRole('heading', { name: 'Ann', level: 1 }).waitFor();
    // Their profile's pace and pitch, from the API's measurements across recordings.
    // The profile's figures are named and rounded as everywhere (measures.ts): pitch median (Hz) as a whole number.
    await page.locator('dl.figures div[data-measure="pitchMedianHz"] dd', { hasText: /^\d+$/ }).waitFor();
    await page.locator('dl.figures div[data-measure="speakingRateSylPerSec"] dd', { hasText: /^\d+\.\d$/ }).waitFor();
    // The units are explained here too (issue 33 item 6).
    const units = page.getByRole('definition').filter({ hasText: 'syllables per second' });
    assert.equal(await units.count(), 1);
    await page.locator('dl.legend[aria-label="Units"] dt', { hasText: 'Hz' }).waitFor();
    await page.getByLabel('Add tags (comma-separated)').fill('coach, team-a');
    await page.getByRole('button', { name: 'Tag' }).click();
    await page.getByRole('list', { name: 'Tags' }).getByText('team-a').waitFor();
    await checkPage(page, 'person');
  });

  await step('a standard key sees no workspace; once revoked it is refused in words with its request id', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await signIn(newKey);
    await page.getByText('standard key').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Workspace' }).count(), 0);
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('checkbox').first().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signIn(service.apiKey);
    await page.getByRole('link', { name: 'Workspace' }).click();
    const row = page.locator('tr', { hasText: 'e2e key' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.locator('tr', { hasText: 'e2e key' }).getByRole('cell', { name: 'live' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(newKey);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Sign-in failed:[\s\S]*\(UNAUTHENTICATED\)[\s\S]*Request id: req_/);
    await assertAccessible(page, 'signin error');
  });

  await step('a transcript attached to a recording: re-analysed live, then aligned to the timeline and playable line by line', async () => {
    await signIn(service.apiKey);
    await page.getByRole('link', { name: 'retro.wav' }).first().click();
    await page.getByRole('heading', { name: 'retro.wav' }).waitFor();
    await page.getByLabel('Attach a transcript (WebVTT, SRT or JSON)').setInputFiles({ name: 'retro.vtt', mimeType: 'text/vtt', buffer: Buffer.from(conversationVtt(20, ['Cleo', 'Dan'], 3, 0.7)) });
    await page.getByRole('button', { name: 'Attach', exact: true }).click();
    // The re-analysis is followed on its event stream, then the page reads the new analysis.
    const lines = page.getByRole('list', { name: 'Transcript, aligned to the timeline' }).getByRole('listitem');
    await lines.first().waitFor({ timeout: 90_000 });
    assert.ok(await lines.count() >= 3, `transcript lines: ${await lines.count()}`);
    assert.ok(await page.locator('rect.seg.worded').count() >= 3, 'the timeline carries the words');
    assert.match(await page.locator('rect.seg.worded').first().getAttribute('aria-label') ?? '', /“.+”/);
    const line = lines.nth(1);
    const from = Number(await line.getAttribute('data-start'));
    await line.getByRole('button').click();
    await page.waitForFunction((s) => {
      const a = document.querySelector('audio');
      return !!a && !a.paused && a.currentTime > s;
    }, from, { timeout: 10_000 });
    await page.locator('.transcript li.playing').waitFor();
    await page.waitForFunction(() => document.querySelector('audio')?.paused === true, undefined, { timeout: 15_000 });
    await checkPage(page, 'recording-transcript');
  });

  await step('an API error on a page is shown in words with its request id', async () => {
    await page.goto(`${service.url}/#/recordings/med_doesnotexist`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Could not read the recording: No media med_doesnotexist\.[\s\S]*\(NOT_FOUND\)[\s\S]*Request id: req_[A-Za-z0-9]{24}/);
    await assertAccessible(page, 'error');
  });

  await step('a recording deleted with its inline confirmation leaves the list', async () => {
    await page.getByRole('link', { name: 'Recordings' }).click();
    await page.getByLabel('Choose files').setInputFiles([{ name: 'notes.vtt', mimeType: 'text/vtt', buffer: Buffer.from(conversationVtt(8, ['Eve', 'Finn'])) }]);
    const row = page.locator('main table tbody tr', { hasText: 'notes.vtt' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('cell', { name: 'retro.wav' }).count(), 1, 'the others stay');
  });
});
