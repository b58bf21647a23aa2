import { HttpStatus, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { QueryFailedError, type DataSource } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { RESET_PASSWORD_TOKEN_TTL_MS, VERIFY_EMAIL_TOKEN_TTL_MS } from '../../common/constants.js';
import type { SessionUser } from '../../common/current-user.decorator.js';
import { BotsService } from '../bots/bots.service.js';
import { MailService } from '../mail/mail.service.js';
import { UsersService } from '../users/users.service.js';
import { AccountDataRepository } from './account-data.repository.js';
import { AuthTokensRepository } from './auth-tokens.repository.js';
import { hashToken, newToken, TOKEN_PATTERN } from './auth-tokens.js';
import type { MessageResponse } from './auth.dto.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './passwords.js';
import { SessionsRepository } from './sessions.repository.js';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
/** The brief's confirmation text; the signup page switches to its confirmation view on "check your email". */
export const SIGNUP_MESSAGE = 'Account created. Please check your email to verify your account.';
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for that email, we have sent a link to reset your password. Check your email for reset instructions.';
const INVALID_VERIFY_LINK = 'This verification link is invalid or has expired. Please sign up again to get a new one.';
const INVALID_RESET_LINK = 'This password reset link is invalid or has expired. Please request a new one.';

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23505';
}

/**
 * Accounts: signup, e-mail verification, credentials, password reset and deletion.
 * Answers never reveal whether an e-mail has an account: signup and forgot-password answer the
 * same way, and whatever differs (database work, mail) happens after the answer (bench/auth-timing.mjs).
 */
@Injectable()
export class AuthService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Accounts');
  /** Work finishing after its answer was sent, chained per e-mail so requests apply in order. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly users: UsersService,
    private readonly tokens: AuthTokensRepository,
    private readonly sessions: SessionsRepository,
    private readonly accountData: AccountDataRepository,
    private readonly mail: MailService,
    private readonly bots: BotsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Resolves when every signup and reset request answered so far has been carried out. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending.values()]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  /**
   * Runs `task` after the answer: whether an address has an account then changes nothing in the
   * answer's content or timing (the database work and the mail are the only differences).
   * Failures are logged; tasks for one address run one after the other.
   */
  private afterAnswer(email: string, label: string, task: () => Promise<void>): void {
    const previous = this.pending.get(email) ?? Promise.resolve();
    const run: Promise<void> = previous
      .then(task)
      .catch((error: unknown) => {
        this.logger.error(`${label} failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        if (this.pending.get(email) === run) this.pending.delete(email);
      });
    this.pending.set(email, run);
  }

  /** Same answer and similar time whether the e-mail is unknown or the password is wrong. */
  async validateCredentials(email: string, password: string): Promise<SessionUser> {
    const user = await this.users.findActiveByEmail(email);
    const ok = await verifyPassword(user?.passwordHash || DUMMY_PASSWORD_HASH, password);
    if (!user || !ok || user.isSystem)
      throw new AppError(HttpStatus.UNAUTHORIZED, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    if (!user.emailVerifiedAt) {
      throw new AppError(HttpStatus.FORBIDDEN, 'EMAIL_NOT_VERIFIED', 'Please verify your email before logging in.');
    }
    await this.users.recordLogin(user.id);
    return { id: user.id, email: user.email };
  }

  /**
   * New address: an unverified account and a verification mail. Verified account: a mail telling
   * its owner someone tried to sign up. Unverified account: the latest signup wins — its password
   * replaces the old one and only the newest verification link works, so whoever registered the
   * address first (possibly not its owner) cannot keep a password on an account the owner verifies.
   * The password is hashed on every path before answering; the rest happens after the answer.
   */
  async signup(email: string, password: string): Promise<MessageResponse> {
    const passwordHash = await hashPassword(password);
    this.afterAnswer(email, 'Signup', () => this.completeSignup(email, passwordHash));
    return { message: SIGNUP_MESSAGE };
  }

  private async completeSignup(email: string, passwordHash: string): Promise<void> {
    const existing = await this.users.findActiveByEmail(email);
    if (existing?.isSystem) return; // the demo bot's owner: not a mailbox, never an account to take
    if (existing?.emailVerifiedAt) {
      this.mail.sendSignupAttemptNotice(existing.email);
      return;
    }
    const { token, hash } = newToken();
    const expiresAt = new Date(Date.now() + VERIFY_EMAIL_TOKEN_TTL_MS);
    try {
      await this.dataSource.transaction(async (manager) => {
        let userId: number;
        if (existing) {
          userId = existing.id;
          await this.users.setPasswordHash(userId, passwordHash, manager);
          await this.tokens.revokeAll(userId, 'verify-email', manager);
        } else {
          userId = (await this.users.createUnverified(email, passwordHash, manager)).id;
        }
        await this.tokens.issue(userId, 'verify-email', hash, expiresAt, manager);
      });
    } catch (error) {
      // Another API instance created the account at the same moment; its mail goes out.
      if (!isUniqueViolation(error)) throw error;
      this.logger.warn('Concurrent signups for one address on two instances; the other one created the account.');
      return;
    }
    this.mail.sendEmailVerification(email, token);
  }
  /** Spends a verification token and returns the owner to sign in. */
  async verifyEmail(token: string): Promise<SessionUser> {
    if (!TOKEN_PATTERN.test(token)) throw AppError.badRequest(INVALID_VERIFY_LINK, 'INVALID_TOKEN');
    const userId = await this.dataSource.transaction(async (manager) => {
      const owner = await this.tokens.consume('verify-email', hashToken(token), manager);
      if (owner !== null) await this.users.markVerified(owner, manager);
      return owner;
    });
    const owner = userId === null ? null : await this.users.findActiveById(userId);
    if (!owner) throw AppError.badRequest(INVALID_VERIFY_LINK, 'INVALID_TOKEN');
    await this.users.recordLogin(owner.id);
    return { id: owner.id, email: owner.email };
  }

  /** Mails a reset link when the address has an account; answers the same, at once, either way. */
  forgotPassword(email: string): MessageResponse {
    this.afterAnswer(email, 'Password reset request', () => this.sendResetLink(email));
    return { message: FORGOT_PASSWORD_MESSAGE };
  }

  private async sendResetLink(email: string): Promise<void> {
    const user = await this.users.findActiveByEmail(email);
    if (!user || user.isSystem) return;
    const { token, hash } = newToken();
    const expiresAt = new Date(Date.now() + RESET_PASSWORD_TOKEN_TTL_MS);
    await this.dataSource.transaction(async (manager) => {
      await this.tokens.revokeAll(user.id, 'reset-password', manager);
      await this.tokens.issue(user.id, 'reset-password', hash, expiresAt, manager);
    });
    this.mail.sendPasswordReset(user.email, token);
  }

  /**
   * Spends a reset token, sets the new password and ends every session of the owner. The link
   * came through the owner's mailbox, so the address counts as verified from now on.
   */
  async resetPassword(token: string, password: string): Promise<MessageResponse> {
    if (!TOKEN_PATTERN.test(token)) throw AppError.badRequest(INVALID_RESET_LINK, 'INVALID_TOKEN');
    const passwordHash = await hashPassword(password);
    const done = await this.dataSource.transaction(async (manager) => {
      const userId = await this.tokens.consume('reset-password', hashToken(token), manager);
      if (userId === null) return false;
      await this.users.setPasswordHash(userId, passwordHash, manager);
      await this.users.markVerified(userId, manager);
      await this.tokens.revokeAll(userId, 'reset-password', manager);
      await this.sessions.deleteAllOf(userId, manager);
      return true;
    });
    if (!done) throw AppError.badRequest(INVALID_RESET_LINK, 'INVALID_TOKEN');
    return { message: 'Your password has been reset. You can now log in with your new password.' };
  }

  /**
   * Removes what the account owns, then soft-deletes it. First bots (with documents and
   * passages), categories and stored files, through BotsService (its own transaction; files
   * after it commits); then, in one transaction, the chat log, tokens, every session and the
   * user row. If the first step fails nothing of the account itself has changed and deleting
   * again finishes the job. The usage ledger stays, so the period's usage is billed on the 3rd.
   */
  async deleteAccount(userId: number): Promise<MessageResponse> {
    const removed = await this.bots.deleteAllOwnedBy(userId);
    await this.dataSource.transaction(async (manager) => {
      await this.accountData.deleteChatLog(manager, userId);
      await this.tokens.deleteAllOf(userId, manager);
      await this.sessions.deleteAllOf(userId, manager);
      await this.users.markDeleted(userId, manager);
    });
    this.logger.log(`Account ${userId} deleted (${removed.bots} bots, ${removed.categories} categories).`);
    return { message: 'Your account has been deleted.' };
  }
}
