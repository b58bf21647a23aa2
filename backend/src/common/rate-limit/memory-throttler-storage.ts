import type { ThrottlerStorage } from '@nestjs/throttler';
import { IdleSweep } from './idle-sweep.js';
import type { ThrottlerStorageRecord } from './redis-throttler-storage.js';

interface Window {
  hits: number;
  resetsAt: number;
  blockedUntil: number;
}

/**
 * The in-process ThrottlerStorage (no REDIS_URL): the same fixed-window rules as the Redis script,
 * so both stores behave alike. (@nestjs/throttler's own ThrottlerStorageService is CommonJS that
 * requires the ESM-only @nestjs/common 12, which Jest on Node 20 cannot load.) Idle windows are
 * swept at most once a minute, so memory follows recent traffic only.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private readonly sweep = new IdleSweep(
    this.windows,
    (window: Window, now) => window.resetsAt <= now && window.blockedUntil <= now,
  );

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    this.sweep.run(now);
    const id = `${throttlerName}:${key}`;
    let window = this.windows.get(id);
    if (window && window.blockedUntil > now) {
      return Promise.resolve(record(window.hits, window.resetsAt - now, true, window.blockedUntil - now));
    }
    if (!window || window.resetsAt <= now) {
      window = { hits: 0, resetsAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    }
    window.hits += 1;
    const left = window.resetsAt - now;
    if (window.hits <= limit) return Promise.resolve(record(window.hits, left, false, 0));
    if (blockDuration > 0) window.blockedUntil = now + blockDuration;
    return Promise.resolve(record(window.hits, left, true, blockDuration > 0 ? blockDuration : left));
  }
}

function record(hits: number, leftMs: number, blocked: boolean, blockedMs: number): ThrottlerStorageRecord {
  return {
    totalHits: hits,
    timeToExpire: Math.ceil(Math.max(leftMs, 0) / 1000),
    isBlocked: blocked,
    timeToBlockExpire: blocked ? Math.max(1, Math.ceil(blockedMs / 1000)) : 0,
  };
}
