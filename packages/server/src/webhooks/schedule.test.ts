// node:test's describe/it return promises that the runner itself awaits.
 
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DestinationLimiter, MAX_ATTEMPTS, RETRY_DELAYS_MS, destinationKey, nextAttemptDelayMs } from './schedule.ts';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;

describe('nextAttemptDelayMs', () => {
  it('follows §8: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h, then failed', () => {
    const schedule = [5 * SEC, 30 * SEC, 2 * MIN, 10 * MIN, 30 * MIN, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];
    assert.deepEqual(RETRY_DELAYS_MS, schedule);
    assert.equal(MAX_ATTEMPTS, 11);
    schedule.forEach((ms, i) => assert.equal(nextAttemptDelayMs(i + 1, null, () => 0.5), ms));
    assert.equal(nextAttemptDelayMs(11, null), null);
    assert.equal(nextAttemptDelayMs(50, null), null);
  });

  it('the first attempt is due at once', () => {
    assert.equal(nextAttemptDelayMs(0, null), 0);
  });

  it('jitters by ±20 %', () => {
    assert.equal(nextAttemptDelayMs(1, null, () => 0), 4 * SEC);
    assert.equal(nextAttemptDelayMs(1, null, () => 1), 6 * SEC);
    assert.equal(nextAttemptDelayMs(10, null, () => 0), 69_120_000); // 0.8 × 24 h
    for (let i = 0; i < 200; i++) {
      const d = nextAttemptDelayMs(3, null) ?? -1;
      assert.ok(d >= 0.8 * 2 * MIN && d <= 1.2 * 2 * MIN, String(d));
    }
  });

  it('treats Retry-After as a floor, capped at 1 h, still counting the attempt', () => {
    assert.equal(nextAttemptDelayMs(1, 60, () => 0.5), 60 * SEC);
    assert.equal(nextAttemptDelayMs(1, 2, () => 0.5), 5 * SEC);
    assert.equal(nextAttemptDelayMs(1, 86_400, () => 0.5), HOUR);
    assert.equal(nextAttemptDelayMs(8, 60, () => 0.5), 6 * HOUR);
    assert.equal(nextAttemptDelayMs(11, 60), null);
    assert.equal(nextAttemptDelayMs(1, 0, () => 0.5), 5 * SEC);
  });

  it('refuses nonsense attempt counts', () => {
    assert.throws(() => nextAttemptDelayMs(-1, null), RangeError);
    assert.throws(() => nextAttemptDelayMs(1.5, null), RangeError);
  });
});

describe('destinationKey', () => {
  it('is the URL origin', () => {
    assert.equal(destinationKey('https://Hooks.Example.com/a?b=1'), 'https://hooks.example.com');
    assert.equal(destinationKey('https://hooks.example.com:443/x'), 'https://hooks.example.com');
    assert.equal(destinationKey('http://hooks.example.com:8080/x'), 'http://hooks.example.com:8080');
    assert.equal(destinationKey('not a url'), 'not a url');
  });
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('DestinationLimiter', () => {
  it('tryAcquire bounds each destination separately, and release is idempotent', () => {
    const limiter = new DestinationLimiter({ perDestination: 2 });
    const a1 = limiter.tryAcquire('https://slow.example/a');
    const a2 = limiter.tryAcquire('https://slow.example/b');
    assert.ok(a1 && a2);
    assert.equal(limiter.tryAcquire('https://slow.example/c'), null);
    // Another destination is not held up by the busy one.
    const b1 = limiter.tryAcquire('https://fast.example/');
    assert.ok(b1);
    a1();
    a1();
    assert.equal(limiter.active('https://slow.example'), 1);
    assert.ok(limiter.tryAcquire('https://slow.example/d'));
    assert.equal(limiter.tryAcquire('https://slow.example/e'), null);
  });

  it('run queues per destination: a stuck endpoint never delays another', async () => {
    const limiter = new DestinationLimiter({ perDestination: 1 });
    const stuck = deferred();
    const order: string[] = [];
    const slow1 = limiter.run('https://slow.example/1', async () => {
      order.push('slow1 start');
      await stuck.promise;
      order.push('slow1 end');
    });
    const slow2 = limiter.run('https://slow.example/2', async () => {
      order.push('slow2 start');
    });
    assert.equal(limiter.waiting('https://slow.example'), 1);
    await limiter.run('https://fast.example/', async () => {
      order.push('fast');
    });
    assert.deepEqual(order, ['slow1 start', 'fast']);
    // A queued run goes before a later tryAcquire on the same destination.
    assert.equal(limiter.tryAcquire('https://slow.example/3'), null);
    stuck.resolve();
    await Promise.all([slow1, slow2]);
    assert.deepEqual(order, ['slow1 start', 'fast', 'slow1 end', 'slow2 start']);
    assert.equal(limiter.active('https://slow.example'), 0);
    assert.equal(limiter.waiting('https://slow.example'), 0);
  });

  it('releases the slot when a task throws', async () => {
    const limiter = new DestinationLimiter({ perDestination: 1 });
    await assert.rejects(limiter.run('https://x.example', async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(limiter.active('https://x.example'), 0);
    assert.ok(limiter.tryAcquire('https://x.example'));
  });

  it('refuses a non-positive limit', () => {
    assert.throws(() => new DestinationLimiter({ perDestination: 0 }), RangeError);
  });
});
