// Rate-limit counters in Redis, for several API processes sharing one limit (REDIS_URL). The
// check and the increment are one Lua script, so two processes can never both take the last
// request of a window; keys expire shortly after their window ends.
//
// While Redis does not answer, each process counts on its own (the in-memory counter), with a
// warning when it starts and when Redis is back: before issue 32 (finding 5) every /v1 request
// waited 0.9 to 1.9 s for ioredis's retries and was answered 500, while /readyz said 200. A command
// times out after COMMAND_TIMEOUT_MS; once one failed, requests use the process's counts at once
// until Redis answers again; `reachable()` tells /readyz.
//
// A Redis that hangs (its socket still "ready", no answer) is down too (issue 41, finding 8: each
// request waited the 250 ms command timeout for as long as it lasted): after a failed command no
// request asks Redis again; a probe (PING), at most once a second while requests come, tells when
// it answers, or the connection's next `ready` does.
import { Redis } from 'ioredis';
import { MemoryRateLimitCounter, type RateCount, type RateLimitCounter } from './rate-limit.ts';

// KEYS: the windows; ARGV: the expiry (ms), then each window's limit. Answers {allowed, counts…}.
const TAKE = `
local out = {1}
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  out[i + 1] = count
  if count >= tonumber(ARGV[i + 1]) then out[1] = 0 end
end
if out[1] == 0 then return out end
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
  out[i + 1] = count
end
return out`;

/** A Redis that has not answered within this long counts as down for that request. */
const COMMAND_TIMEOUT_MS = 250;
/** While Redis is down, it is probed at most this often (and only while requests come). */
const PROBE_INTERVAL_MS = 1000;

export class RedisRateLimitCounter implements RateLimitCounter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly fallback = new MemoryRateLimitCounter();
  private readonly log: (msg: string) => void;
  private down = false;
  private probe: NodeJS.Timeout | null = null;

  constructor(url: string, prefix = 'rapport:rl:', log: (msg: string) => void = () => undefined) {
    this.redis = new Redis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 0,
      // Commands wait for the first connection (at most COMMAND_TIMEOUT_MS); after a failure they
      // are not sent at all until the connection is ready again (take()).
      enableOfflineQueue: true,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      // Reconnect at most every 2 s, for ever: the process goes back to the shared counts.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.redis.on('error', () => undefined);
    this.redis.on('ready', () => this.markDown(false));
    this.prefix = prefix;
    this.log = log;
  }

  async take(counts: readonly RateCount[], windowStart: number): Promise<{ allowed: boolean; counts: number[] }> {
    if (!this.down) {
      try {
        const keys = counts.map((c) => `${this.prefix}${windowStart}:${c.key}`);
        const [allowed, ...now] = (await this.redis.eval(TAKE, keys.length, ...keys, 61_000, ...counts.map((c) => c.limit))) as number[];
        return { allowed: allowed === 1, counts: now };
      } catch {
        // Fall through to this process's own counts.
      }
      this.markDown(true);
    }
    this.probeSoon();
    return this.fallback.take(counts, windowStart);
  }

  /** Whether the counts are Redis's now (false: this process's own, while Redis does not answer). */
  get shared(): boolean {
    return !this.down;
  }

  /** Asks Redis once, in a while, whether it answers again; never on a request's path. */
  private probeSoon(): void {
    if (this.probe !== null) return;
    this.probe = setTimeout(() => {
      this.redis.ping().then(
        (r) => {
          this.probe = null;
          if (r === 'PONG') this.markDown(false);
        },
        () => {
          this.probe = null;
        },
      );
    }, PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  /** Whether Redis answers now (for /readyz). */
  async reachable(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    return this.redis.ping().then((r) => r === 'PONG', () => false);
  }

  private markDown(down: boolean): void {
    if (down === this.down) return;
    this.down = down;
    this.log(down
      ? 'Redis does not answer: rate limits are counted by this process alone until it does'
      : 'Redis answers again: rate limits are shared between processes again');
  }

  async close(): Promise<void> {
    if (this.probe !== null) clearTimeout(this.probe);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
