import { DEFAULT_AGENT_NAME, type ConversationRetentionDays, type MeResponse } from '@botsmith/contract';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { isUnknownTimeZone } from '../../common/postgres-errors.js';
import { partsOf, type Statement } from '../../database/statement.js';
import type { Transaction } from '../../database/transaction.js';
import { APP_CONFIG, isDemoMode, type AppConfig } from '../../config/config.js';
import { toAccount, type Account, type Credentials } from './account.js';
import { TIME_ZONE_SETTING_REFUSED, type SettingsResponse, type UpdateSettingsDto } from './users.dto.js';
import type { UserEntity } from './user.entity.js';
import { UsersRepository, type CreditSpend } from './users.repository.js';

/** What `GET /api/user/me` answers: never the password hash or tokens. */
export type { CreditSpend, MeResponse };

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The signed-in owner's account settings; the owner is the session's, so nobody reads another's. */
  async settings(id: number): Promise<SettingsResponse> {
    const user = await this.users.findActiveById(id);
    if (!user) throw AppError.unauthorized();
    return {
      spendAlertDollars: user.spendAlertDollars,
      conversationRetentionDays: user.conversationRetentionDays as ConversationRetentionDays,
      agentName: user.agentName ?? DEFAULT_AGENT_NAME,
      timeZone: user.timeZone,
      monthlyReport: user.monthlyReport,
    };
  }

  /** The name the owner's replies carry (docs/product.md#owner-replies); null for no active account. */
  async agentNameOf(id: number): Promise<string | null> {
    const user = await this.users.findActiveById(id);
    return user ? (user.agentName ?? DEFAULT_AGENT_NAME) : null;
  }

  /** Saves the fields the request carries; an absent field keeps its value. */
  async updateSettings(id: number, dto: UpdateSettingsDto): Promise<SettingsResponse> {
    const fields: Partial<
      Pick<UserEntity, 'spendAlertDollars' | 'conversationRetentionDays' | 'agentName' | 'timeZone' | 'monthlyReport'>
    > = {};
    if (dto.spendAlertDollars !== undefined) fields.spendAlertDollars = dto.spendAlertDollars;
    if (dto.conversationRetentionDays !== undefined) fields.conversationRetentionDays = dto.conversationRetentionDays;
    if (dto.agentName !== undefined) fields.agentName = dto.agentName;
    if (dto.timeZone !== undefined)
      fields.timeZone = dto.timeZone === null ? null : await this.knownTimeZone(dto.timeZone);
    if (dto.monthlyReport !== undefined) fields.monthlyReport = dto.monthlyReport;
    if (!(await this.users.updateActive(id, fields))) throw AppError.unauthorized();
    return this.settings(id);
  }

  /**
   * The name as Intl spells it (the DTO checked Intl knows it), once the database's own zone list
   * knows it too: the runtime's and the database's tzdata can differ (e.g. PGlite's), and a zone
   * PostgreSQL refuses would make every analytics query of the account fail.
   */
  private async knownTimeZone(name: string): Promise<string> {
    const canonical = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    try {
      await this.users.checkTimeZone(canonical);
    } catch (error) {
      if (isUnknownTimeZone(error)) throw AppError.badRequest(`${TIME_ZONE_SETTING_REFUSED}.`, 'VALIDATION_FAILED');
      throw error;
    }
    return canonical;
  }

  async findActiveById(id: number): Promise<Account | null> {
    const user = await this.users.findActiveById(id);
    return user && toAccount(user);
  }

  async findActiveByEmail(email: string): Promise<Account | null> {
    const user = await this.users.findActiveByEmail(email);
    return user && toAccount(user);
  }

  /** The one way to a password hash: for the login check only (AuthService.validateCredentials). */
  async credentialsFor(email: string): Promise<Credentials | null> {
    const user = await this.users.findActiveByEmail(email);
    return user && { account: toAccount(user), passwordHash: user.passwordHash };
  }

  async recordLogin(id: number): Promise<void> {
    await this.users.update(id, { lastLoginAt: new Date() });
  }

  /** A new, unverified account; credits_cents takes its column default (the free credits). */
  async createUnverified(email: string, passwordHash: string, tx?: Transaction): Promise<Account> {
    return toAccount(await this.users.create({ email, passwordHash, emailVerifiedAt: null }, tx));
  }

  async setPasswordHash(id: number, passwordHash: string, tx?: Transaction): Promise<void> {
    await this.users.update(id, { passwordHash }, tx);
  }

  markVerified(id: number, tx?: Transaction): Promise<void> {
    return this.users.markVerified(id, tx);
  }

  /** The account becomes verified with the password of the signup that was confirmed; false if it no longer can. */
  verifyWithPassword(id: number, passwordHash: string, tx: Transaction): Promise<boolean> {
    return this.users.verifyWithPassword(id, passwordHash, tx);
  }

  markDeleted(id: number, tx: Transaction): Promise<void> {
    return this.users.markDeleted(id, tx);
  }

  /** Free credits taken for one answered message, as part of the charge's statement (UsersRepository.addCreditSpend). */
  spendCreditsIn(statement: Statement, ownerId: number, priceCents: number): CreditSpend {
    return this.users.addCreditSpend(partsOf(statement), ownerId, priceCents);
  }

  /** The billing columns are written here too (the billing module reads them in its own queries). */
  setCustomerIfMissing(ownerId: number, customerId: string): Promise<string | null> {
    return this.users.setCustomerIfMissing(ownerId, customerId);
  }

  setSubscriptionIfMissing(ownerId: number, subscriptionId: string, itemId: string): Promise<string | null> {
    return this.users.setSubscriptionIfMissing(ownerId, subscriptionId, itemId);
  }

  setPaymentStatus(customerId: string, hasPaid: boolean, at: Date, tx?: Transaction): Promise<boolean> {
    return this.users.setPaymentStatus(customerId, hasPaid, at, tx);
  }

  clearSubscription(customerId: string, subscriptionId: string, tx?: Transaction): Promise<void> {
    return this.users.clearSubscription(customerId, subscriptionId, tx);
  }

  forgetSubscription(ownerId: number, tx: Transaction): Promise<void> {
    return this.users.forgetSubscription(ownerId, tx);
  }

  toMe(user: Account): MeResponse {
    return {
      id: user.id,
      email: user.email,
      hasPaid: user.hasPaid,
      stripeCustomerId: user.stripeCustomerId,
      subscriptionItemId: user.subscriptionItemId,
      demoMode: isDemoMode(this.config),
    };
  }
}
