import crypto from 'node:crypto';
import { HttpStatus, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { BackgroundTasks } from '../../common/background-tasks.js';
import { RESET_PASSWORD_TOKEN_TTL_MS, VERIFY_EMAIL_TOKEN_TTL_MS } from '../../common/constants.js';
import type { SessionUser } from '../../common/current-user.decorator.js';
import { isUniqueViolation } from '../../common/postgres-errors.js';
import { MailService } from '../mail/mail.service.js';
import { AccountDataRegistry } from '../users/account-data.js';
import { UsersService } from '../users/users.service.js';
import { AuthThrottle } from './auth-throttle.js';
import { AuthTokensRepository } from './auth-tokens.repository.js';
import { hashToken, newToken, TOKEN_PATTERN } from './auth-tokens.js';
import type { MessageResponse } from './auth.dto.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './passwords.js';
import type { PendingSignupEntity } from './pending-signup.entity.js';
import { PendingSignupsRepository } from './pending-signups.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { TransactionRunner } from '../../database/transaction.js';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
/** The confirmation text; the signup page switches to its confirmation view on "check your email". */
export const SIGNUP_MESSAGE = 'Account created. Please check your email to verify your account.';
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for that email, we have sent a link to reset your password. Check your email for reset instructions.';
const INVALID_VERIFY_LINK = 'This verification link is invalid or has expired. Please sign up again to get a new one.';
export const PASSWORD_CONFIRMATION_REQUIRED =
  'This link was opened in a different browser from the one used to sign up. Enter the password you chose when you signed up to verify your email.';
const WRONG_SIGNUP_PASSWORD = 'That is not the password chosen when signing up with this link.';
const INVALID_RESET_LINK = 'This password reset link is invalid or has expired. Please request a new one.';

/** Rolls back a verification whose account was verified, or deleted, between lookup and spend. */
class VerificationLost extends Error {}

/** Compares two SHA-256 hex digests in constant time. */
function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Accounts: signup, e-mail verification, credentials, password reset and deletion.
 * Answers never reveal whether an e-mail has an account: signup and forgot-password answer the
 * same way, and whatever differs (database work, mail) happens after the answer (bench/auth-timing.mjs).
 */
@Injectable()
export class AuthService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Accounts');
  /** Work finishing after its answer was sent, in turn per e-mail so requests apply in order. */
  private readonly background = new BackgroundTasks(this.logger);

  constructor(
    private readonly users: UsersService,
    private readonly tokens: AuthTokensRepository,
    private readonly pendingSignups: PendingSignupsRepository,
    private readonly throttle: AuthThrottle,
    private readonly sessions: SessionsRepository,
    private readonly mail: MailService,
    private readonly accountData: AccountDataRegistry,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Resolves when every signup and reset request answered so far has been carried out. */
  settled(): Promise<void> {
    return this.background.settled();
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
    this.background.startInTurn(email, task, `${label} failed`);
  }

  /** Same answer and similar time whether the e-mail is unknown or the password is wrong. */
  async validateCredentials(email: string, password: string): Promise<SessionUser> {
    const credentials = await this.users.credentialsFor(email);
    const ok = await verifyPassword(credentials?.passwordHash || DUMMY_PASSWORD_HASH, password);
    const user = credentials?.account;
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
   * its owner someone tried to sign up. Unverified account: another pending signup with its own
   * password and link, next to the earlier ones (each valid until it expires). The account's
   * password only ever becomes the password of the signup that is verified, and verification
   * needs the browser that submitted it or that signup's password (verifyEmail), so someone who
   * signs up with another person's address cannot get a password of theirs onto that account.
   * The password is hashed on every path before answering; the rest happens after the answer.
   * `browser` is the signup's pre-auth cookie value; only its SHA-256 is stored.
   */
  async signup(email: string, password: string, browser: string): Promise<MessageResponse> {
    const passwordHash = await hashPassword(password);
    const browserHash = hashToken(browser);
    this.afterAnswer(email, 'Signup', () => this.completeSignup(email, passwordHash, browserHash));
    return { message: SIGNUP_MESSAGE };
  }

  private async completeSignup(email: string, passwordHash: string, browserHash: string): Promise<void> {
    // A second attempt covers another API instance creating the account at the same moment.
    for (let attempt = 1; ; attempt += 1) {
      const existing = await this.users.findActiveByEmail(email);
      if (existing?.isSystem) return; // the demo bot's owner: not a mailbox, never an account to take
      if (existing?.emailVerifiedAt) {
        this.mail.sendSignupAttemptNotice(existing.email);
        return;
      }
      const { token, hash } = newToken();
      const expiresAt = new Date(Date.now() + VERIFY_EMAIL_TOKEN_TTL_MS);
      try {
        await this.transactions.run(async (tx) => {
          // A new account holds the first signup's password until a signup is verified; it cannot log in before.
          const userId = existing?.id ?? (await this.users.createUnverified(email, passwordHash, tx)).id;
          await this.pendingSignups.open({ userId, tokenHash: hash, passwordHash, browserHash, expiresAt }, tx);
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 2) throw error;
        continue;
      }
      this.mail.sendEmailVerification(email, token);
      return;
    }
  }

  /**
   * The mailed link, opened by the browser that submitted the signup (its pre-auth cookie):
   * verifies the account with that signup's password and returns the owner to sign in. Opened
   * anywhere else it changes nothing and asks for the password (409).
   */
  async verifyEmail(token: string, browser: string | undefined): Promise<SessionUser> {
    const signup = await this.openSignupOf(token);
    if (!browser || !signup.browserHash || !sameDigest(hashToken(browser), signup.browserHash)) {
      throw new AppError(HttpStatus.CONFLICT, 'PASSWORD_CONFIRMATION_REQUIRED', PASSWORD_CONFIRMATION_REQUIRED);
    }
    return this.completeVerification(signup);
  }

  /**
   * The mailed link opened in another browser, with the password typed again: it must be the
   * one submitted with that signup. Wrong passwords count against the account's e-mail and the
   * client network exactly like failed logins, and are refused the same way once too many.
   */
  async verifyEmailWithPassword(token: string, password: string, ip: string | undefined): Promise<SessionUser> {
    const signup = await this.openSignupOf(token);
    const account = await this.users.findActiveById(signup.userId);
    if (!account) throw AppError.badRequest(INVALID_VERIFY_LINK, 'INVALID_TOKEN');
    await this.throttle.assertLoginAllowed(account.email, ip);
    if (!(await verifyPassword(signup.passwordHash, password))) {
      await this.throttle.recordLoginFailure(account.email, ip);
      throw AppError.badRequest(WRONG_SIGNUP_PASSWORD, 'INVALID_CREDENTIALS');
    }
    return this.completeVerification(signup);
  }

  /** The open pending signup behind a link of an account still waiting for verification, else 400. */
  private async openSignupOf(token: string): Promise<PendingSignupEntity> {
    const invalid = AppError.badRequest(INVALID_VERIFY_LINK, 'INVALID_TOKEN');
    if (!TOKEN_PATTERN.test(token)) throw invalid;
    const signup = await this.pendingSignups.findOpenByTokenHash(hashToken(token));
    if (!signup) throw invalid;
    const account = await this.users.findActiveById(signup.userId);
    if (!account || account.emailVerifiedAt || account.isSystem) throw invalid;
    return signup;
  }

  /**
   * Spends the signup, gives the account that signup's password, marks it verified and ends the
   * account's other pending signups, all in one transaction: of two verifications racing, one wins.
   */
  private async completeVerification(signup: PendingSignupEntity): Promise<SessionUser> {
    const verified = await this.transactions
      .run(async (tx) => {
        if (!(await this.pendingSignups.spend(signup.id, tx))) return false;
        if (!(await this.users.verifyWithPassword(signup.userId, signup.passwordHash, tx))) {
          throw new VerificationLost();
        }
        await this.pendingSignups.endAllOf(signup.userId, tx);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof VerificationLost) return false;
        throw error;
      });
    const owner = verified ? await this.users.findActiveById(signup.userId) : null;
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
    await this.transactions.run(async (tx) => {
      await this.tokens.revokeAll(user.id, 'reset-password', tx);
      await this.tokens.issue(user.id, 'reset-password', hash, expiresAt, tx);
    });
    this.mail.sendPasswordReset(user.email, token);
  }

  /**
   * Spends a reset token, sets the new password and ends every session of the owner. The link
   * came through the owner's mailbox, so the address counts as verified from now on.
   */
  async resetPassword(token: string, password: string): Promise<MessageResponse> {
    if (!TOKEN_PATTERN.test(token)) throw AppError.badRequest(INVALID_RESET_LINK, 'INVALID_TOKEN');
    // A made-up token costs a lookup, not an argon2 run; the token is still spent atomically below.
    if (!(await this.tokens.isUsable('reset-password', hashToken(token)))) {
      throw AppError.badRequest(INVALID_RESET_LINK, 'INVALID_TOKEN');
    }
    const passwordHash = await hashPassword(password);
    const done = await this.transactions.run(async (tx) => {
      const userId = await this.tokens.consume('reset-password', hashToken(token), tx);
      if (userId === null) return false;
      await this.users.setPasswordHash(userId, passwordHash, tx);
      await this.users.markVerified(userId, tx);
      // The address is proven now; no pending signup's link may set another password later.
      await this.pendingSignups.endAllOf(userId, tx);
      await this.tokens.revokeAll(userId, 'reset-password', tx);
      await this.sessions.deleteAllOf(userId, tx);
      return true;
    });
    if (!done) throw AppError.badRequest(INVALID_RESET_LINK, 'INVALID_TOKEN');
    return { message: 'Your password has been reset. You can now log in with your new password.' };
  }

  /**
   * Removes what the account owns, then soft-deletes it. First what other modules hold in their
   * own transactions (bots with documents and passages, categories and stored files, through the
   * bots module; files after it commits); then, in one transaction, what they hold inside the
   * account's (the chat log), tokens, every session and the user row. Those modules register
   * with AccountDataRegistry (users/account-data.ts), so auth imports neither. If the first step
   * fails nothing of the account itself has changed and deleting again finishes the job. The
   * usage ledger stays, so the period's usage is billed on the 3rd.
   */
  async deleteAccount(userId: number): Promise<MessageResponse> {
    const removed = await this.accountData.deleteBeforeAccount(userId);
    await this.transactions.run(async (tx) => {
      await this.accountData.deleteWithinAccount(userId, tx);
      await this.tokens.deleteAllOf(userId, tx);
      await this.pendingSignups.deleteAllOf(userId, tx);
      await this.sessions.deleteAllOf(userId, tx);
      await this.users.markDeleted(userId, tx);
    });
    this.logger.log(`Account ${userId} deleted${removed.length > 0 ? ` (${removed.join(', ')})` : ''}.`);
    return { message: 'Your account has been deleted.' };
  }
}
