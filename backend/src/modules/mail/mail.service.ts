import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MAIL_PORT, type MailMessage, type MailPort } from './mail.port.js';
import {
  accountSpendAlertMail,
  agentReplyMail,
  botBudgetAlertMail,
  leadMail,
  type LeadMail,
  passwordResetMail,
  signupAttemptMail,
  verifyEmailMail,
  type AccountSpendAlert,
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
  private readonly pending = new Set<Promise<void>>();

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

  /** Resolves when every mail handed over so far has been sent (or has failed and been logged). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    this.port.close?.();
  }

  private dispatch(message: MailMessage): void {
    const sending = this.port
      .send(message)
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.error(`Could not send "${message.subject}" to ${message.to}: ${reason}`);
      })
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }
}
