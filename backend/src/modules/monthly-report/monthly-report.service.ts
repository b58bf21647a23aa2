import { Injectable, Logger } from '@nestjs/common';
import { isoDate, periodStartFor } from '../../common/billing-period.js';
import { describeError } from '../../common/error-description.js';
import { AnalyticsService } from '../analytics/analytics.service.js';
import { todayIn } from '../analytics/analytics-period.js';
import { CorrectionsService } from '../corrections/corrections.service.js';
import { MailService } from '../mail/mail.service.js';
import { MonthlyReportRepository, type ReportAccount } from './monthly-report.repository.js';

/** Topics and unanswered questions a report lists. */
export const MONTHLY_REPORT_ITEMS = 3;
/** Accounts read per pass of a run (a run goes on until none is due). */
const BATCH = 100;
/** The largest distance of a time zone from UTC (UTC+14, Kiribati): widens the account query. */
const ZONE_MARGIN_MS = 14 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MonthlyReportRun {
  /** The reported period's first day (its billing period start, YYYY-MM-DD). */
  periodStart: string;
  sent: number;
  /** Accounts whose period, in their time zone, had no conversation: nothing is mailed. */
  skipped: number;
  failed: number;
  /** Accounts whose period has not ended yet in their time zone (a later run mails them). */
  waiting: number;
  /** Accounts another instance claimed first. */
  elsewhere: number;
}

/**
 * The monthly report mail (docs/product.md#monthly-report): once the billing period has ended
 * (the 3rd, 00:00 UTC, with the billing cycle), each opted-in account with conversations in it is
 * mailed its conversations, resolution rate, cost per resolved conversation, top 3 topics and the
 * 3 questions its bots could not answer most often. Figures are Insights' (AnalyticsService), over
 * the period's days in the owner's time zone (UTC when the owner left it to the browser), so an
 * account is due once its own 3rd has begun; the scheduler runs this every hour.
 *
 * Once per account and period across instances: a `monthly_reports` row is claimed first and only
 * the claimer computes and mails; a failed mail releases the claim (the next run retries), a sent
 * or empty report marks it done. A claim left by an instance that stopped mid-send is taken over
 * after STALE_CLAIM_MINUTES: a report may then, rarely, arrive twice, never not at all.
 */
@Injectable()
export class MonthlyReportService {
  private readonly logger = new Logger('MonthlyReport');

  constructor(
    private readonly repository: MonthlyReportRepository,
    private readonly analytics: AnalyticsService,
    private readonly corrections: CorrectionsService,
    private readonly mail: MailService,
  ) {}

  async run(now = new Date()): Promise<MonthlyReportRun> {
    const end = periodStartFor(now);
    const start = periodStartFor(new Date(end.getTime() - 1));
    const result: MonthlyReportRun = {
      periodStart: isoDate(start),
      sent: 0,
      skipped: 0,
      failed: 0,
      waiting: 0,
      elsewhere: 0,
    };
    const seen = new Set<number>();
    for (;;) {
      const accounts = (
        await this.repository.due(
          result.periodStart,
          new Date(start.getTime() - ZONE_MARGIN_MS),
          new Date(end.getTime() + ZONE_MARGIN_MS),
          BATCH + seen.size,
        )
      ).filter((account) => !seen.has(account.id));
      if (accounts.length === 0) break;
      for (const account of accounts) {
        seen.add(account.id);
        const outcome = await this.report(account, start, end, now);
        result[outcome] += 1;
      }
    }
    if (result.sent + result.failed > 0) {
      this.logger.log(
        `Period ${result.periodStart}: ${result.sent} report(s) sent, ${result.skipped} without conversations, ` +
          `${result.failed} failed (retried next hour), ${result.waiting} waiting for their time zone`,
      );
    }
    return result;
  }

  private async report(
    account: ReportAccount,
    start: Date,
    end: Date,
    now: Date,
  ): Promise<'sent' | 'skipped' | 'failed' | 'waiting' | 'elsewhere'> {
    const timeZone = account.timeZone ?? 'UTC';
    const from = isoDate(start);
    const endDate = isoDate(end);
    // The period's last day must be over where the owner lives before it is reported.
    if (todayIn(timeZone, now) < endDate) return 'waiting';
    const periodStart = from;
    if (!(await this.repository.claim(account.id, periodStart))) return 'elsewhere';
    try {
      const to = isoDate(new Date(end.getTime() - DAY_MS));
      const figures = await this.analytics.analytics(account.id, { from, to, timeZone, groupBy: 'week' }, now);
      const { conversations, outcomes, undecided, costPerResolvedCents } = figures.totals;
      if (conversations === 0) {
        await this.repository.finish(account.id, periodStart, 'skipped');
        return 'skipped';
      }
      const bounds = await this.repository.bounds(from, endDate, timeZone);
      const unanswered = await this.corrections.mostAskedUnanswered(
        account.id,
        bounds.start,
        bounds.end,
        MONTHLY_REPORT_ITEMS,
      );
      await this.mail.sendMonthlyReport(account.email, {
        from,
        to,
        timeZone,
        conversations,
        resolutionRate: conversations - undecided === 0 ? null : outcomes.resolved.rate,
        costPerResolvedCents,
        topics: figures.topics
          .slice(0, MONTHLY_REPORT_ITEMS)
          .map((topic) => ({ text: topic.text, conversations: topic.conversations })),
        unanswered,
      });
      await this.repository.finish(account.id, periodStart, 'sent');
      return 'sent';
    } catch (error) {
      this.logger.error(`The monthly report to account ${account.id} failed: ${describeError(error)}`);
      await this.repository.release(account.id, periodStart).catch((releaseError: unknown) => {
        this.logger.error(
          `Could not release the monthly report claim of ${account.id}: ${describeError(releaseError)}`,
        );
      });
      return 'failed';
    }
  }
}
