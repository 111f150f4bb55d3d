// When to try a delivery again (decisions §8), and how many attempts may be in flight per
// destination (issue 4: a slow or dead endpoint never holds up deliveries to others).

/** Delays before attempts 2..11, in order; after the 11th attempt the delivery is `failed`. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, // 5 s
  30_000, // 30 s
  120_000, // 2 min
  600_000, // 10 min
  1_800_000, // 30 min
  3_600_000, // 1 h
  10_800_000, // 3 h
  21_600_000, // 6 h
  43_200_000, // 12 h
  86_400_000, // 24 h
];

/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER_RATIO = 0.2;
export const RETRY_AFTER_CAP_SEC = 3600;

/**
 * Milliseconds to wait before the next attempt, or null when the delivery has used all its
 * attempts and is `failed`.
 *
 * - `attemptsMade` counts attempts already made (0: the first attempt is due now, delay 0).
 * - The scheduled delay gets ±20 % uniform jitter so that deliveries failed together (a receiver
 *   outage) do not come back together.
 * - A receiver's `Retry-After` (429/503) is a floor: the delay is the later of the jittered
 *   schedule and Retry-After capped at 1 h, so we never come back sooner than asked and a
 *   receiver cannot park a delivery for longer than an hour. The attempt still counts, so a
 *   receiver cannot keep a delivery alive forever by answering 429.
 */
export function nextAttemptDelayMs(
  attemptsMade: number,
  retryAfterSec: number | null,
  random: () => number = Math.random,
): number | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  if (attemptsMade === 0) return 0;
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  const r = Math.min(Math.max(random(), 0), 1);
  const jittered = Math.round(base * (1 - JITTER_RATIO + 2 * JITTER_RATIO * r));
  if (retryAfterSec === null || !Number.isFinite(retryAfterSec) || retryAfterSec <= 0) return jittered;
  return Math.max(jittered, Math.min(retryAfterSec, RETRY_AFTER_CAP_SEC) * 1000);
}

/** A destination is a URL origin (`https://hooks.example.com:8443`); unparsable URLs key as given. */
export function destinationKey(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}

export interface DestinationLimiterOptions {
  /** Attempts in flight at once per destination. */
  perDestination: number;
}

/**
 * Bounded concurrency per destination. Two ways to use it:
 * - `tryAcquire(url)` never waits: it returns a release function, or null when the destination is
 *   at its limit, so a dispatcher can leave that delivery in the outbox and move on to others;
 * - `run(url, task)` queues the task behind that destination's own slots only.
 * Release functions are safe to call twice.
 */
export class DestinationLimiter {
  readonly perDestination: number;
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(opts: DestinationLimiterOptions) {
    if (!Number.isSafeInteger(opts.perDestination) || opts.perDestination < 1) {
      throw new RangeError(`perDestination must be a positive integer, got ${opts.perDestination}`);
    }
    this.perDestination = opts.perDestination;
  }

  /** Attempts in flight to the destination of `url`. */
  active(url: string): number {
    return this.#active.get(destinationKey(url)) ?? 0;
  }

  /** Tasks queued by `run` for the destination of `url`, not yet started. */
  waiting(url: string): number {
    return this.#waiting.get(destinationKey(url))?.length ?? 0;
  }

  tryAcquire(url: string): (() => void) | null {
    const key = destinationKey(url);
    const active = this.#active.get(key) ?? 0;
    // Queued `run` tasks go first, so tryAcquire cannot starve them.
    if (active >= this.perDestination || (this.#waiting.get(key)?.length ?? 0) > 0) return null;
    this.#active.set(key, active + 1);
    return this.#releaser(key);
  }

  async run<T>(url: string, task: () => Promise<T>): Promise<T> {
    const key = destinationKey(url);
    let release = this.tryAcquire(url);
    if (!release) {
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(key) ?? [];
        queue.push(resolve);
        this.#waiting.set(key, queue);
      });
      // The slot was handed over by the releasing task without being freed in between.
      release = this.#releaser(key);
    }
    try {
      return await task();
    } finally {
      release();
    }
  }

  #releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.#waiting.get(key);
      const next = queue?.shift();
      if (queue && queue.length === 0) this.#waiting.delete(key);
      if (next) {
        next();
        return;
      }
      const active = (this.#active.get(key) ?? 1) - 1;
      if (active <= 0) this.#active.delete(key);
      else this.#active.set(key, active);
    };
  }
}
