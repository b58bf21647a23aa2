import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundTasks } from '../../common/background-tasks.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MAIL_PORT, type MailMessage, type MailPort } from './mail.port.js';
import {
  accountSpendAlertMail,
  agentReplyMail,
  botBudgetAlertMail,
  leadAddressConfirmationMail,
  leadDigestMail,
  leadMail,
  type LeadMail,
  monthlyReportMail,
  type MonthlyReport,
  passwordResetMail,
  replyNoticeMail,
  signupAttemptMail,
  verifyEmailMail,
  webhookDisabledMail,
  type WebhookDisabledNotice,
  type AccountSpendAlert,
  type DigestLead,
  type ReplyNotice,
  type AgentReply,
  type BotBudgetAlert,
} from './mail.templates.js';

/**
 * The account mails, with absolute links built from PUBLIC_URL. Sending happens in the background:
 * the HTTP answer never waits for the mail server, so its latency cannot reveal whether an e-mail
 * address has an account, and a slow server cannot stall signups. Failures are logged.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly background = new BackgroundTasks(this.logger);

  constructor(
    @Inject(MAIL_PORT) private readonly port: MailPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get transport(): MailPort['kind'] {
    return this.port.kind;
  }

  sendEmailVerification(to: string, token: string): void {
    const link = `${this.config.publicUrl}/verify-email/${token}`;
    this.dispatch({ to, ...verifyEmailMail(link), link });
  }

  /** Sent instead of a verification mail when the address already has a verified account. */
  sendSignupAttemptNotice(to: string): void {
    const { publicUrl } = this.config;
    this.dispatch({ to, ...signupAttemptMail(`${publicUrl}/login`, `${publicUrl}/forgot-password`) });
  }

  sendPasswordReset(to: string, token: string): void {
    const link = `${this.config.publicUrl}/reset-password/${token}`;
    this.dispatch({ to, ...passwordResetMail(link), link });
  }

  sendBotBudgetAlert(to: string, alert: Omit<BotBudgetAlert, 'dashboardUrl'>): void {
    this.dispatch({ to, ...botBudgetAlertMail({ ...alert, dashboardUrl: `${this.config.publicUrl}/dashboard` }) });
  }

  sendAccountSpendAlert(to: string, alert: Omit<AccountSpendAlert, 'settingsUrl'>): void {
    this.dispatch({ to, ...accountSpendAlertMail({ ...alert, settingsUrl: `${this.config.publicUrl}/dashboard` }) });
  }

  /** A visitor's lead and the conversation's transcript, to each address the bot's leads go to. */
  sendLead(to: string[], lead: Omit<LeadMail, 'conversationUrl'> & { conversationId: number }): void {
    const conversationUrl = `${this.config.publicUrl}/dashboard/conversations?c=${lead.conversationId}`;
    const content = leadMail({ ...lead, conversationUrl });
    for (const address of to) this.dispatch({ to: address, ...content });
  }

  /** An owner's reply to the visitor who left this address (docs/product.md#owner-replies). */
  sendAgentReply(to: string, reply: AgentReply): void {
    this.dispatch({ to, ...agentReplyMail(reply) });
  }

  /** Once when an endpoint is disabled after failing for days (docs/product.md#webhooks). */
  sendWebhookDisabled(to: string, notice: Omit<WebhookDisabledNotice, 'dashboardUrl'>): void {
    this.dispatch({ to, ...webhookDisabledMail({ ...notice, dashboardUrl: `${this.config.publicUrl}/dashboard` }) });
  }

  /** Asks a lead address to confirm (docs/product.md#mail-consent); `token` goes in the link. */
  sendLeadAddressConfirmation(to: string, token: string): void {
    const link = this.confirmationLink(token);
    this.dispatch({ to, ...leadAddressConfirmationMail(link), link });
  }

  /** The fixed-text first reply to a visitor's address, with the link that confirms it and shows the reply. */
  sendReplyNotice(to: string, notice: ReplyNotice, token: string): void {
    const link = this.confirmationLink(token);
    this.dispatch({ to, ...replyNoticeMail(notice, link), link });
  }

  /** Lead notices past the window's fifth, as one mail (docs/product.md#mail-consent). */
  sendLeadDigest(to: string, leads: DigestLead[]): void {
    this.dispatch({ to, ...leadDigestMail(leads, `${this.config.publicUrl}/dashboard/conversations`) });
  }

  /**
   * The monthly report (docs/product.md#monthly-report), sent now and awaited, unlike the other
   * mails: the job that claimed it releases its claim when sending fails, so a later run retries.
   */
  async sendMonthlyReport(
    to: string,
    report: Omit<MonthlyReport, 'insightsUrl' | 'settingsUrl' | 'unanswered'> & {
      unanswered: Array<{ text: string; count: number; botName: string; botId: number }>;
    },
  ): Promise<void> {
    const { publicUrl } = this.config;
    const content = monthlyReportMail({
      ...report,
      unanswered: report.unanswered.map(({ botId, ...question }) => ({
        ...question,
        answerUrl: `${publicUrl}/dashboard/conversations?view=questions&botId=${botId}`,
      })),
      insightsUrl: `${publicUrl}/dashboard/insights`,
      settingsUrl: `${publicUrl}/dashboard?settings=account`,
    });
    await this.port.send({ to, ...content });
  }

  /** Resolves when every mail handed over so far has been sent (or has failed and been logged). */
  flush(): Promise<void> {
    return this.background.settled();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    this.port.close?.();
  }

  private confirmationLink(token: string): string {
    return `${this.config.publicUrl}/api/mail/confirm/${token}`;
  }

  private dispatch(message: MailMessage): void {
    this.background.start(() => this.port.send(message), `Could not send "${message.subject}" to ${message.to}`);
  }
}
