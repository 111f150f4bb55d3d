// A real 429 and its automatic retry. The service's windows are aligned to the UTC minute, so the
// wait is whatever is left of the current minute (up to 60 s): this file stands alone so that the
// runner overlaps that wait with other files.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Rapport, RateLimitError } from '../src/index.ts';
import { start } from './real-service.ts';
import type { Service } from './real-service.ts';

let service: Service;
before(async () => {
  service = await start({ RATE_LIMIT_CREDITS: '1' });
});
after(() => service.close());

test('a 429 carries retryAfter = Retry-After, and the SDK retries after waiting it', { timeout: 90_000 }, async () => {
  const noRetry = new Rapport({ apiKey: service.apiKey, baseUrl: service.url, maxRetries: 0 });
  await noRetry.credits.balance();
  const err = await noRetry.credits.balance().catch((e: unknown) => e);
  assert.ok(err instanceof RateLimitError, String(err));
  assert.equal(err.status, 429);
  assert.equal(err.code, 'RATE_LIMITED');
  assert.ok(err.retryAfter !== null && err.retryAfter >= 1 && err.retryAfter <= 60);
  assert.equal(err.headers.get('retry-after'), String(err.retryAfter));
  assert.equal(err.headers.get('x-ratelimit-remaining'), '0');

  const client = new Rapport({ apiKey: service.apiKey, baseUrl: service.url });
  const started = Date.now();
  const balance = await client.credits.balance();
  const waited = (Date.now() - started) / 1000;
  assert.equal(typeof balance.available, 'number');
  // Retry-After is rounded up to whole seconds, so the next window may open up to 1 s sooner.
  assert.ok(waited >= err.retryAfter - 1.5, `waited ${waited}s for a Retry-After of ${err.retryAfter}s`);
});
