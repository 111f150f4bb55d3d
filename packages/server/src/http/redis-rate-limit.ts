// Rate-limit counters in Redis, for several API processes sharing one limit (REDIS_URL). The
// check and the increment are one Lua script, so two processes can never both take the last
// request of a window; keys expire shortly after their window ends.
//
// While Redis does not answer, each process counts on its own (the in-memory counter), with a
// warning when it starts and when Redis is back: before issue 32 (finding 5) every /v1 request
// waited 0.9 to 1.9 s for ioredis's retries and was answered 500, while /readyz said 200. A command
// times out after COMMAND_TIMEOUT_MS; once one failed, requests use the process's counts at once
// until the connection is ready again; `reachable()` tells /readyz.
import { Redis } from 'ioredis';
import { MemoryRateLimitCounter, type RateLimitCounter } from './rate-limit.ts';

const TAKE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, count} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, count}`;

/** A Redis that has not answered within this long counts as down for that request. */
const COMMAND_TIMEOUT_MS = 250;

export class RedisRateLimitCounter implements RateLimitCounter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly fallback = new MemoryRateLimitCounter();
  private readonly log: (msg: string) => void;
  private down = false;

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

  async take(key: string, windowStart: number, limit: number): Promise<{ allowed: boolean; count: number }> {
    if (!this.down || this.redis.status === 'ready') {
      try {
        const [allowed, count] = (await this.redis.eval(TAKE, 1, `${this.prefix}${windowStart}:${key}`, limit, 61_000)) as [number, number];
        this.markDown(false);
        return { allowed: allowed === 1, count };
      } catch {
        // Fall through to this process's own counts.
      }
    }
    this.markDown(true);
    return this.fallback.take(key, windowStart, limit);
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
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
