// Fixed-window rate limits of decisions §4: windows aligned to the UTC minute, counted per API
// key (per client IP without a valid key). Counters sit behind `RateLimitCounter` so that a
// Redis adapter can replace the in-memory one when several API processes share the limits.
import type { RateClass, RateLimitConfig } from '../config.ts';

export interface RateLimitCounter {
  /**
   * Counts one request in the window when the count is below `limit`, and answers the count
   * after it; a request over the limit is not counted (rejected requests do not count).
   */
  take(key: string, windowStart: number, limit: number): Promise<{ allowed: boolean; count: number }>;
  /** Whether a shared counter's backing service answers (/readyz); absent: always. */
  reachable?(): Promise<boolean>;
}

export class MemoryRateLimitCounter implements RateLimitCounter {
  private window = 0;
  private counts = new Map<string, number>();

  async take(key: string, windowStart: number, limit: number): Promise<{ allowed: boolean; count: number }> {
    if (windowStart !== this.window) {
      // A new minute: every old count is stale, so drop them all at once (no per-key timers).
      this.window = windowStart;
      this.counts = new Map();
    }
    const count = this.counts.get(key) ?? 0;
    if (count >= limit) return { allowed: false, count };
    this.counts.set(key, count + 1);
    return { allowed: true, count: count + 1 };
  }
}

export interface RateLimitDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSec: number;
}

export async function checkRateLimit(
  counter: RateLimitCounter,
  limits: RateLimitConfig,
  rateClass: RateClass,
  subject: string,
  now: number = Date.now(),
): Promise<RateLimitDecision> {
  const windowStart = Math.floor(now / 60_000) * 60_000;
  const reset = windowStart + 60_000;
  const limit = limits[rateClass];
  const { allowed, count } = await counter.take(`${rateClass}:${subject}`, windowStart, limit);
  const retryAfterSec = Math.max(1, Math.ceil((reset - now) / 1000));
  return {
    allowed,
    retryAfterSec,
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - count)),
      'x-ratelimit-reset': String(reset / 1000),
    },
  };
}
