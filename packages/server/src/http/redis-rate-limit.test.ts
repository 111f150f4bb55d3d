// Integration test against a real Redis (REDIS_URL, default redis://127.0.0.1:6379). A Redis that
// does not answer fails the test (`.ci/run` starts one); RAPPORT_SKIP_SERVICES=1 skips it instead,
// with the reason printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisMissing, REDIS_URL } from '../../test/store-backends.ts';
import { RedisRateLimitCounter } from './redis-rate-limit.ts';
import { checkRateLimit } from './rate-limit.ts';

test('Redis counters: two processes share one limit; rejected requests do not count', async (t) => {
  const missing = await redisMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const prefix = `rapport:test:${process.pid}:${Date.now()}:`;
  const a = new RedisRateLimitCounter(REDIS_URL, prefix);
  const b = new RedisRateLimitCounter(REDIS_URL, prefix);
  try {
    const window = Math.floor(Date.now() / 60_000) * 60_000;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take('key:1', window, 7)));
    assert.equal(results.filter((r) => r.allowed).length, 7);
    const again = await a.take('key:1', window, 7);
    assert.deepEqual(again, { allowed: false, count: 7 });
    const other = await b.take('key:2', window, 7);
    assert.deepEqual(other, { allowed: true, count: 1 });
    const limits = { upload: 10, reportCreation: 20, jobStatus: 60, files: 30, entities: 30, credits: 100, default: 2 };
    const d1 = await checkRateLimit(a, limits, 'default', 'key:3', window + 1000);
    const d2 = await checkRateLimit(b, limits, 'default', 'key:3', window + 1000);
    const d3 = await checkRateLimit(a, limits, 'default', 'key:3', window + 1000);
    assert.deepEqual([d1.allowed, d2.allowed, d3.allowed], [true, true, false]);
    assert.equal(d3.headers['x-ratelimit-remaining'], '0');
    assert.equal(d3.retryAfterSec, 59);
  } finally {
    await a.close();
    await b.close();
  }
});
