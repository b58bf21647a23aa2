import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

/** What @nestjs/throttler's ThrottlerStorage returns for one hit. */
export interface ThrottlerStorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/**
 * One hit, atomically (a Lua script runs alone on the Redis server, so concurrent instances
 * cannot interleave between the read and the write): a fixed window of `ttl` ms counted in
 * `hits`, and, once the limit is passed, a `block` key that refuses everything until it expires.
 * Returns {hits, ms left in the window, blocked 0/1, ms left blocked}.
 */
const HIT_SCRIPT = `
local hitsKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockMs = tonumber(ARGV[3])
local blockedFor = redis.call('PTTL', blockKey)
if blockedFor > 0 then
  local hits = tonumber(redis.call('GET', hitsKey) or '0')
  return {hits, math.max(redis.call('PTTL', hitsKey), 0), 1, blockedFor}
end
local hits = redis.call('INCR', hitsKey)
local left = redis.call('PTTL', hitsKey)
if hits == 1 or left < 0 then
  redis.call('PEXPIRE', hitsKey, ttl)
  left = ttl
end
if hits > limit then
  if blockMs > 0 then
    redis.call('SET', blockKey, '1', 'PX', blockMs)
    return {hits, left, 1, blockMs}
  end
  return {hits, left, 1, left}
end
return {hits, left, 0, 0}
`;

const COMMAND = 'botsmithThrottleHit';
type HitCommand = (...args: string[]) => Promise<[number, number, number, number]>;

/**
 * A ThrottlerStorage for @nestjs/throttler 6 on Redis (ioredis), so rate limits hold across
 * every API instance. (@nest-lab/throttler-storage-redis does not support Nest 12.) Keys carry a
 * hash tag, so both keys of one limit live on the same Redis Cluster slot.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(
    protected readonly redis: Redis,
    protected readonly prefix = 'botsmith:throttle:',
  ) {
    // defineCommand sends the script once and then calls it by its SHA (EVALSHA).
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 2, lua: HIT_SCRIPT });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}${throttlerName}:{${key}}`;
    const run = (this.redis as unknown as Record<string, HitCommand>)[COMMAND].bind(this.redis);
    const reply = await run(
      `${base}:hits`,
      `${base}:block`,
      String(Math.max(1, Math.ceil(ttl))),
      String(limit),
      String(Math.max(0, Math.ceil(blockDuration))),
    );
    const [hits, leftMs, blocked, blockedMs] = reply.map(Number) as [number, number, number, number];
    return {
      totalHits: hits,
      timeToExpire: Math.ceil(leftMs / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: blocked === 1 ? Math.max(1, Math.ceil(blockedMs / 1000)) : 0,
    };
  }
}
