// Rate-limit counters in Redis, for several API processes sharing one limit (REDIS_URL). The
// check and the increment are one Lua script, so two processes can never both take the last
// request of a window; keys expire shortly after their window ends.
import { Redis } from 'ioredis';
import type { RateLimitCounter } from './rate-limit.ts';

const TAKE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, count} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, count}`;

export class RedisRateLimitCounter implements RateLimitCounter {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(url: string, prefix = 'rapport:rl:') {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.prefix = prefix;
  }

  async take(key: string, windowStart: number, limit: number): Promise<{ allowed: boolean; count: number }> {
    const [allowed, count] = (await this.redis.eval(TAKE, 1, `${this.prefix}${windowStart}:${key}`, limit, 61_000)) as [number, number];
    return { allowed: allowed === 1, count };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
