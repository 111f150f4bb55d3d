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
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take([{ key: 'key:1', limit: 7 }], window)));
    assert.equal(results.filter((r) => r.allowed).length, 7);
    const again = await a.take([{ key: 'key:1', limit: 7 }], window);
    assert.deepEqual(again, { allowed: false, counts: [7] });
    const other = await b.take([{ key: 'key:2', limit: 7 }], window);
    assert.deepEqual(other, { allowed: true, counts: [1] });
    // Two windows at once: counted in both, or (one at its limit) in neither.
    assert.deepEqual(await a.take([{ key: 'key:4', limit: 5 }, { key: 'ws:1', limit: 2 }], window), { allowed: true, counts: [1, 1] });
    assert.deepEqual(await b.take([{ key: 'key:5', limit: 5 }, { key: 'ws:1', limit: 2 }], window), { allowed: true, counts: [1, 2] });
    assert.deepEqual(await a.take([{ key: 'key:6', limit: 5 }, { key: 'ws:1', limit: 2 }], window), { allowed: false, counts: [0, 2] });
    assert.deepEqual(await a.take([{ key: 'key:6', limit: 5 }], window), { allowed: true, counts: [1] }, 'the refused request was not counted');
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
