// The dashboard end to end in Debian's chromium against a real service: sign in, upload two
// generated conversations and watch their analysis, open a timeline and play a speaker's stretch,
// label a speaker, run a matching job from the pickers and read its rendered result, see jobs,
// rotate the signing secret, redeliver a webhook, create and revoke a key, merge two people, and
// the error (with its request id) of the revoked key. axe-core checks every page.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startService } from '@rapport/server';
import { buildDashboard } from '../src/build.ts';
import { CHROMIUM, LAPTOP, SCREENSHOTS, assertAccessible, checkPage, conversationWav, launch } from './browser.ts';

const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;

let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let page: Page;
let hookUrl: string;
const hooks: string[] = [];
const pageErrors: string[] = [];
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
  service = await startService({ env: { RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_JOB_STATUS: '1000', RATE_LIMIT_FILES: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
  browser = await launch();
  page = await browser.newPage({ viewport: LAPTOP });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => pageErrors.push(err.message));
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

  await step('upload two conversations with a hint and watch their analysis end', async () => {
    await page.getByLabel('Speakers', { exact: true }).selectOption('exact');
    await page.getByLabel('Number of speakers').fill('2');
    await page.getByLabel('Choose files').setInputFiles([
      { name: 'standup.wav', mimeType: 'audio/wav', buffer: conversationWav(24, [120, 210]) },
      { name: 'retro.wav', mimeType: 'audio/wav', buffer: conversationWav(20, [150, 240], 3, 0.7) },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem');
    assert.equal(await uploads.count(), 2);
    await page.getByRole('link', { name: /ready · 2 speakers/ }).nth(1).waitFor({ timeout: 90_000 });
    for (const bar of await page.locator('.uploads progress').all()) {
      assert.equal(await bar.getAttribute('value'), await bar.getAttribute('max'), 'each progress bar ends full');
    }
    await page.getByRole('cell', { name: 'retro.wav' }).waitFor();
    await checkPage(page, 'recordings');
  });

  await step('a recording: timeline, play a speaker’s stretch, label a speaker', async () => {
    await page.getByRole('link', { name: 'standup.wav' }).first().click();
    await page.getByRole('heading', { name: 'standup.wav' }).waitFor();
    const seg = page.locator('rect.seg[data-speaker]').nth(1);
    await seg.waitFor();
    const start = Number(await seg.getAttribute('data-start'));
    await page.locator('.timeline path').waitFor();
    await seg.click();
    await page.waitForFunction((s) => {
      const a = document.querySelector('audio');
      return !!a && !a.paused && a.currentTime >= s;
    }, start, { timeout: 10_000 });
    // It stops by itself at the end of the stretch.
    await page.waitForFunction(() => {
      const a = document.querySelector('audio');
      return !!a && a.paused && !a.dataset.stopAt;
    }, undefined, { timeout: 15_000 });
    const name = page.getByLabel('Name of Speaker 1');
    await name.fill('Ann');
    await name.locator('xpath=..').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: 'Ann' }).waitFor();
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
    await page.locator('#group-1-media').selectOption({ label: 'retro.wav' });
    await page.locator('#group-1-speaker').selectOption({ index: 1 });
    await page.getByLabel('Label (optional)').fill('Ann and the retro');
    await page.getByLabel('Webhook URL (optional)').fill(hookUrl);
    await checkPage(page, 'matching');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('.document').waitFor({ timeout: 60_000 });
    assert.match(page.url(), /#\/results\/matching\/mat_/);
    const variants = await page.locator('figure.illustration').evaluateAll((els) => els.map((e) => e.getAttribute('data-variant')));
    assert.deepEqual([...new Set(variants)].sort(), ['analysis', 'connection', 'conversation', 'growth']);
    assert.ok(await page.locator('figure.illustration svg').count() >= 3, 'illustrations are drawn as figures');
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
    // A new session has no local copy of the recordings: the page asks for one to play it.
    await page.getByRole('link', { name: 'retro.wav' }).click();
    await page.getByLabel('choose your copy of retro.wav').setInputFiles({ name: 'retro.wav', mimeType: 'audio/wav', buffer: conversationWav(20, [150, 240], 3, 0.7) });
    await page.locator('audio').waitFor();
    await page.locator('rect.seg[role=button]').first().waitFor();
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
});
