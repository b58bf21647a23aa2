import { HttpStatus, Inject, Injectable, Optional } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { ConcurrencyLimit } from '../../common/concurrency-limit.js';

/**
 * How much of the database the owners' analytics may take on one instance (docs/product.md#analytics).
 * One request runs several queries at once, so analytics run one request at a time per instance
 * (they take at most that one request's connections from the pool the chats share), up to
 * `queued` more wait their turn in order, and one owner holds at most `perOwner` places, running
 * or waiting (Insights asks for a period and the one before it together): an owner who floods the
 * route is turned away with 429 instead of making every other owner wait.
 */
export const ANALYTICS_ADMISSION = { running: 1, queued: 20, perOwner: 4 } as const;

/** Other limits for AnalyticsAdmission (tests). */
export const ANALYTICS_ADMISSION_LIMITS = Symbol('ANALYTICS_ADMISSION_LIMITS');

export const ANALYTICS_BUSY = 'Your figures are still being worked out. Please try again in a moment.';

function busy(): AppError {
  return new AppError(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', ANALYTICS_BUSY, { 'Retry-After': '1' });
}

@Injectable()
export class AnalyticsAdmission {
  private readonly instance: ConcurrencyLimit;
  /** Places held by each owner, running or waiting. */
  private readonly held = new Map<number, number>();

  private readonly limits: { running: number; queued: number; perOwner: number };

  constructor(
    @Optional() @Inject(ANALYTICS_ADMISSION_LIMITS) limits?: { running: number; queued: number; perOwner: number },
  ) {
    this.limits = limits ?? ANALYTICS_ADMISSION;
    this.instance = new ConcurrencyLimit(this.limits.running, this.limits.queued, busy);
  }

  async run<T>(ownerId: number, work: () => Promise<T>): Promise<T> {
    const held = this.held.get(ownerId) ?? 0;
    if (held >= this.limits.perOwner) throw busy();
    this.held.set(ownerId, held + 1);
    try {
      return await this.instance.run(work);
    } finally {
      const left = (this.held.get(ownerId) ?? 1) - 1;
      if (left > 0) this.held.set(ownerId, left);
      else this.held.delete(ownerId);
    }
  }
}
