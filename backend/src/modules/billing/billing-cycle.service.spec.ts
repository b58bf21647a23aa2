import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { Transaction, TransactionRunner } from '../../database/transaction.js';
import type { UsersService } from '../users/users.service.js';
import type { BillingAccountRepository } from './billing-account.repository.js';
import type { BillingCycleRunsRepository, CycleTotals } from './billing-cycle-runs.repository.js';
import { BillingCycleService } from './billing-cycle.service.js';
import type { MeterReporter } from './meter-reporter.service.js';
import type { PaymentsPort } from './payments.port.js';

/**
 * The monthly cycle's rules (docs/product.md, the cycle on the 3rd), on fakes of its ports: which
 * period it closes, what it reports and invoices, the deleted accounts it closes, and that a second
 * run of the same period bills nothing again.
 */

// Each run logs its totals; the assertions below read them from the result instead.
beforeAll(() => Logger.overrideLogger(false));

interface Setup {
  /** Billable cents not yet reported, one entry per usage row. */
  unreported?: number[];
  deletedWithSubscription?: Array<{ id: number; subscriptionId: string }>;
  /** Another instance holds the advisory lock. */
  lockHeldElsewhere?: boolean;
  closePeriodFails?: boolean;
}

/** A BillingCycleService over in-memory fakes that behave as the real adapters promise (each period invoiced once). */
function cycleWith(setup: Setup = {}) {
  const unreported = [...(setup.unreported ?? [])];
  const deleted = [...(setup.deletedWithSubscription ?? [])];
  const runs = new Map<string, { completed: boolean; totals: CycleTotals }>();
  const invoicedPeriods = new Set<string>();
  const seen = {
    closedPeriods: [] as string[],
    cancelled: [] as string[],
    forgotten: [] as number[],
    flushes: 0,
    reports: 0,
    transactions: 0,
  };
  const tx = {} as Transaction;

  const payments = {
    closePeriod: async ({ periodStart, periodEnd }: { periodStart: Date; periodEnd: Date }, given: Transaction) => {
      expect(given).toBe(tx);
      if (setup.closePeriodFails) throw new Error('provider down');
      const period = `${periodStart.toISOString()}..${periodEnd.toISOString()}`;
      seen.closedPeriods.push(period);
      if (invoicedPeriods.has(period)) return { invoices: 0 };
      invoicedPeriods.add(period);
      return { invoices: 2 };
    },
    cancelSubscription: async (subscriptionId: string) => {
      seen.cancelled.push(subscriptionId);
    },
    flushEvents: async () => {
      seen.flushes += 1;
    },
  };
  const reporter = {
    reportAll: async (given: Transaction) => {
      expect(given).toBe(tx);
      seen.reports += 1;
      const rows = unreported.splice(0);
      return { events: rows.length, cents: rows.reduce((sum, row) => sum + row, 0) };
    },
  };
  const accounts = { deletedWithSubscription: async () => deleted.splice(0) };
  const users = {
    forgetSubscription: async (id: number) => {
      seen.forgotten.push(id);
    },
  };
  const runsRepository = {
    completed: async (periodStart: string) => runs.get(periodStart)?.completed === true,
    tryLock: async () => !setup.lockHeldElsewhere,
    start: async (_tx: Transaction, periodStart: string) => {
      if (!runs.has(periodStart)) {
        runs.set(periodStart, {
          completed: false,
          totals: { reportedEvents: 0, reportedCents: 0, closedSubscriptions: 0 },
        });
      }
    },
    complete: async (_tx: Transaction, periodStart: string, totals: CycleTotals) => {
      const run = runs.get(periodStart)!;
      run.completed = true;
      run.totals = {
        reportedEvents: run.totals.reportedEvents + totals.reportedEvents,
        reportedCents: run.totals.reportedCents + totals.reportedCents,
        closedSubscriptions: run.totals.closedSubscriptions + totals.closedSubscriptions,
      };
    },
  };
  const transactions = {
    run: async <T>(work: (given: Transaction) => Promise<T>) => {
      seen.transactions += 1;
      return work(tx);
    },
  };

  const service = new BillingCycleService(
    payments as unknown as PaymentsPort,
    reporter as unknown as MeterReporter,
    accounts as unknown as BillingAccountRepository,
    users as unknown as UsersService,
    runsRepository as unknown as BillingCycleRunsRepository,
    transactions as unknown as TransactionRunner,
  );
  return { service, seen, runs };
}

describe('BillingCycleService: the period it closes', () => {
  it.each([
    ['at 00:00 UTC on the 3rd', '2026-12-03T00:00:00.000Z', '2026-11-03', '2026-12-03'],
    ['later on the 3rd (a catch-up run)', '2026-12-03T17:45:00.000Z', '2026-11-03', '2026-12-03'],
    ['on the 2nd, the last day of a period', '2026-12-02T23:59:59.999Z', '2026-10-03', '2026-11-03'],
    ['across the new year', '2027-01-03T00:00:00.000Z', '2026-12-03', '2027-01-03'],
  ])('run %s closes the period that just ended', async (_when, now, start, end) => {
    const { service, seen } = cycleWith();
    const result = await service.run(new Date(now));
    expect([result.closedPeriodStart, result.closedPeriodEnd]).toEqual([start, end]);
    expect(seen.closedPeriods).toEqual([`${start}T00:00:00.000Z..${end}T00:00:00.000Z`]);
  });

  it('records the run under the period it opened, which completedFor then reports', async () => {
    const { service, runs } = cycleWith();
    expect(await service.completedFor(new Date('2026-12-10T08:00:00Z'))).toBe(false);
    await service.run(new Date('2026-12-03T00:00:00Z'));
    expect([...runs.keys()]).toEqual(['2026-12-03']);
    expect(await service.completedFor(new Date('2026-12-10T08:00:00Z'))).toBe(true);
    expect(await service.completedFor(new Date('2027-01-03T00:00:00Z'))).toBe(false);
  });
});

describe('BillingCycleService: what is charged', () => {
  it('reports every unreported billable row, invoices the period and closes deleted accounts’ subscriptions', async () => {
    const { service, seen, runs } = cycleWith({
      unreported: [3, 4, 5],
      deletedWithSubscription: [
        { id: 41, subscriptionId: 'sub_41' },
        { id: 42, subscriptionId: 'sub_42' },
      ],
    });
    expect(await service.run(new Date('2026-12-03T00:00:00Z'))).toEqual({
      ran: true,
      closedPeriodStart: '2026-11-03',
      closedPeriodEnd: '2026-12-03',
      reportedEvents: 3,
      reportedCents: 12,
      invoices: 2,
      closedSubscriptions: 2,
    });
    expect(seen.cancelled).toEqual(['sub_41', 'sub_42']);
    expect(seen.forgotten).toEqual([41, 42]);
    expect(runs.get('2026-12-03')).toEqual({
      completed: true,
      totals: expect.objectContaining({ reportedEvents: 3, reportedCents: 12, closedSubscriptions: 2 }),
    });
    // The provider's own events (test mode: invoice paid or failed) go out after the commit.
    expect(seen.flushes).toBe(1);
    expect(seen.transactions).toBe(1);
  });

  it('bills nothing again when the same period is run twice', async () => {
    const { service, runs } = cycleWith({
      unreported: [3, 4],
      deletedWithSubscription: [{ id: 41, subscriptionId: 'sub_41' }],
    });
    const first = await service.run(new Date('2026-12-03T00:00:00Z'));
    const second = await service.run(new Date('2026-12-03T06:00:00Z'));
    expect(first).toMatchObject({ ran: true, reportedCents: 7, invoices: 2, closedSubscriptions: 1 });
    expect(second).toMatchObject({
      ran: true,
      reportedEvents: 0,
      reportedCents: 0,
      invoices: 0,
      closedSubscriptions: 0,
    });
    expect(runs.get('2026-12-03')!.totals).toEqual({ reportedEvents: 2, reportedCents: 7, closedSubscriptions: 1 });
  });

  it('runs once when asked twice at the same time in one process', async () => {
    const { service, seen } = cycleWith({ unreported: [5] });
    const [a, b] = await Promise.all([service.run(new Date('2026-12-03T00:00:00Z')), service.run()]);
    expect(a).toBe(b);
    expect(seen.reports).toBe(1);
    expect(service.running).toBe(false);
  });

  it('skips, reporting and invoicing nothing, while another instance holds the lock', async () => {
    const { service, seen, runs } = cycleWith({ lockHeldElsewhere: true, unreported: [5] });
    const result = await service.run(new Date('2026-12-03T00:00:00Z'));
    expect(result).toMatchObject({
      ran: false,
      skipped: 'Another instance is running the billing cycle.',
      reportedEvents: 0,
    });
    expect(seen.reports).toBe(0);
    expect(seen.closedPeriods).toEqual([]);
    expect(runs.size).toBe(0);
  });

  it('records no completed run when the provider fails, so the scheduler runs the period again', async () => {
    const { service, seen } = cycleWith({ closePeriodFails: true, unreported: [5] });
    await expect(service.run(new Date('2026-12-03T00:00:00Z'))).rejects.toThrow('provider down');
    expect(await service.completedFor(new Date('2026-12-03T00:00:00Z'))).toBe(false);
    expect(seen.flushes).toBe(0);
    expect(service.running).toBe(false);
  });
});
