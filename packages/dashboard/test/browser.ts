// What the browser tests share: a fresh build of the dashboard, Debian's chromium driven by
// playwright-core, axe-core run in the page (serious and critical violations are failures), and
// screenshots at a laptop and a phone width written to packages/dashboard/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { alternatingTwoVoices } from '@rapport/analysis/synthetic';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--autoplay-policy=no-user-gesture-required'],
  });
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** Runs axe-core on the page as it is; fails on any serious or critical violation. */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  // Evaluated through the devtools protocol: the page's CSP (no inline scripts) stays in force.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => (window as unknown as { axe: { run: (o: unknown) => Promise<unknown> } }).axe.run({ resultTypes: ['violations'] })) as AxeResult;
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], `axe on ${name}`);
}

/** Signs in on the dashboard's start page with an API key and waits for the recordings list. */
export async function signIn(page: Page, url: string, apiKey: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Recordings', level: 1 }).waitFor();
}

/** Uploads a WebVTT transcript on its own through the API; its media id. */
export async function uploadTranscript(url: string, apiKey: string, vtt: string, filename: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([vtt], { type: 'text/vtt' }), filename);
  const res = await fetch(`${url}/v1/files`, { method: 'POST', headers: { 'service-api-key': apiKey }, body: form });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { id: string }).id;
}

/** Checks the page with axe, then writes its screenshot at laptop and phone width. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}-laptop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await assertAccessible(page, `${name} (phone)`);
  // At phone width nothing makes the page itself scroll sideways (wide tables scroll in place).
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `${name} is ${width} px wide at phone width`);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-phone.png`, fullPage: true });
  await page.setViewportSize(LAPTOP);
}

const RATE = 16_000;

/**
 * A generated conversation: two alternating synthetic voices (f0 of each given; the engine's
 * alternatingTwoVoices, speech with consonants that the speech detector hears) and a pause
 * between turns; 16 kHz mono WAV.
 */
export function conversationWav(seconds: number, f0s: [number, number], turn = 3.5, gap = 0.5): Buffer {
  const samples = alternatingTwoVoices(seconds, { f0s, turnSec: turn, gapSec: gap, rate: RATE });
  const n = samples.length;
  const pcm = Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + n * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(n * 2, 40);
  return Buffer.concat([header, Buffer.from(pcm.buffer)]);
}

/** A WebVTT transcript of `conversationWav` with the same turns: `<v Name>` cues alternating the two names. */
export function conversationVtt(seconds: number, names: [string, string], turn = 3.5, gap = 0.5): string {
  const lines = ['Shall we look at the sprint?', 'Yes, the release went out on time.', 'What slowed us down?', 'Reviews took two days each.', 'Can we pair on them?', 'Good idea, from Monday.'];
  const clock = (t: number) => `00:${String(Math.floor(t / 60)).padStart(2, '0')}:${(t % 60).toFixed(3).padStart(6, '0')}`;
  const cues: string[] = [];
  for (let k = 0; k * (turn + gap) < seconds; k++) {
    const start = k * (turn + gap);
    const end = Math.min(seconds, start + turn);
    cues.push(`${clock(start)} --> ${clock(end)}\n<v ${names[k % 2]}>${lines[k % lines.length]}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
