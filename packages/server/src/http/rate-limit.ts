// Fixed-window rate limits of decisions §4: windows aligned to the UTC minute, counted per API
// key (per client IP without a valid key). Counters sit behind `RateLimitCounter` so that a
// Redis adapter can replace the in-memory one when several API processes share the limits.
//
// A key's requests also count for its workspace, which may make in each class and minute the
// class's limit times its number of live keys (issue 41, finding 3): each new key started with
// fresh windows, so a loop of create key, 30 requests, revoke answered 300 requests a minute
// where a key may make 30. Keys used side by side keep their own limits whole; keys replacing
// each other within a minute share one key's.
import type { RateClass, RateLimitConfig } from '../config.ts';

/** One window a request counts in, and its limit. */
export interface RateCount {
  key: string;
  limit: number;
}

export interface RateLimitCounter {
  /**
   * Counts one request in every window of `counts` when each is below its limit, and answers the
   * counts after it; a request over any limit is counted in none (rejected requests do not count).
   */
  take(counts: readonly RateCount[], windowStart: number): Promise<{ allowed: boolean; counts: number[] }>;
  /** Whether a shared counter's backing service answers (/readyz); absent: always. */
  reachable?(): Promise<boolean>;
}

export class MemoryRateLimitCounter implements RateLimitCounter {
  private window = 0;
  private counts = new Map<string, number>();

  async take(counts: readonly RateCount[], windowStart: number): Promise<{ allowed: boolean; counts: number[] }> {
    if (windowStart !== this.window) {
      // A new minute: every old count is stale, so drop them all at once (no per-key timers).
      this.window = windowStart;
      this.counts = new Map();
    }
    const now = counts.map((c) => this.counts.get(c.key) ?? 0);
    if (counts.some((c, i) => (now[i] ?? 0) >= c.limit)) return { allowed: false, counts: now };
    counts.forEach((c, i) => this.counts.set(c.key, (now[i] ?? 0) + 1));
    return { allowed: true, counts: now.map((n) => n + 1) };
  }
}

export interface RateLimitDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSec: number;
  /** What refused the request: the key's (or address's) own limit, or its workspace's. */
  refusedBy: 'subject' | 'workspace' | null;
  /** The limit that refused it. */
  refusedLimit: number | null;
}

/** The workspace a key belongs to, and how many live keys it has (at least the one asking). */
export interface RateLimitWorkspace {
  id: string;
  liveKeys: number;
}

export async function checkRateLimit(
  counter: RateLimitCounter,
  limits: RateLimitConfig,
  rateClass: RateClass,
  subject: string,
  now: number = Date.now(),
  workspace?: RateLimitWorkspace,
): Promise<RateLimitDecision> {
  const windowStart = Math.floor(now / 60_000) * 60_000;
  const reset = windowStart + 60_000;
  const limit = limits[rateClass];
  const counts: RateCount[] = [{ key: `${rateClass}:${subject}`, limit }];
  if (workspace) counts.push({ key: `${rateClass}:ws:${workspace.id}`, limit: limit * Math.max(1, workspace.liveKeys) });
  const taken = await counter.take(counts, windowStart);
  const left = counts.map((c, i) => c.limit - (taken.counts[i] ?? 0));
  const refused = taken.allowed ? -1 : left.findIndex((n) => n <= 0);
  const retryAfterSec = Math.max(1, Math.ceil((reset - now) / 1000));
  return {
    allowed: taken.allowed,
    retryAfterSec,
    refusedBy: refused < 0 ? null : refused === 0 ? 'subject' : 'workspace',
    refusedLimit: refused < 0 ? null : (counts[refused]?.limit ?? null),
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, Math.min(...left))),
      'x-ratelimit-reset': String(reset / 1000),
    },
  };
}
