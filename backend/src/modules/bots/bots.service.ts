import crypto from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { TransactionRunner, type Transaction } from '../../database/transaction.js';
import { AppError } from '../../common/app-error.js';
import { BOT_DEFAULTS } from '../../common/constants.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { sessionSecret } from '../../config/session-secret.js';
import { IdentitySecretBox, newIdentitySecret } from './identity-secret.js';
import { CategoriesService } from '../categories/categories.service.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { iconKeyFromUrl } from '../storage/file-urls.js';
import { toAppearance } from './bot-appearance.js';
import { BOT_FILES, type BotFilesPort } from './bot-files.port.js';
import type { BotEntity } from './bot.entity.js';
import { normaliseLeadCapture, type BotResponse, type UpdateBotDto } from './bots.dto.js';
import { BotsRepository, type BotChanges } from './bots.repository.js';
import {
  normaliseAllowedDomain,
  normaliseGradient,
  normaliseRadius,
  type BotIdentityStatus,
  type DocumentResponse,
} from '@botsmith/contract';
import { describeError } from '../../common/error-description.js';

const GRADIENT_FIELDS = [
  'bubbleColor',
  'bubbleTextColor',
  'bannerColor',
  'bannerTextColor',
  'placeholderTextColor',
  'sendButtonColor',
  'sendArrowColor',
  'widgetBubbleColor',
  'assistantBubbleColor',
  'assistantBubbleTextColor',
  'widgetBackgroundColor',
] as const;

const PLAIN_FIELDS = [
  'name',
  'customGreeting',
  'starterQuestions',
  'widgetLanguage',
  'model',
  'showModelLabel',
  'categoryId',
  'bannerDisclaimer',
  'placeholderText',
  'animation',
  'widgetPosition',
  'prompt',
  'maxTokens',
  'temperature',
  'usageLimitDollars',
] as const;

/** The owner's sentence when the account holds as many bots as it may. */
export function botLimitSentence(limit: number): string {
  return `An account can have at most ${limit} bots. Delete a bot you no longer use to create another.`;
}

/** The bot's API key: 32 random bytes, base64url (43 characters). */
export function newApiKey(): string {
  return crypto.randomBytes(32).toString('base64url');
}

@Injectable()
export class BotsService {
  private readonly logger = new Logger(BotsService.name);
  /** Told after an update saved a bot's lead setting (mail consent asks new addresses to confirm). */
  /** Seals identity secrets (made on first use: the session secret is read from config). */
  private identitySecrets?: IdentitySecretBox;
  private readonly leadAddressListeners: Array<(ownerId: number, emails: string[]) => Promise<void>> = [];

  constructor(
    private readonly bots: BotsRepository,
    private readonly transactions: TransactionRunner,
    private readonly categories: CategoriesService,
    @Inject(BOT_FILES) private readonly files: BotFilesPort,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(ownerId: number): Promise<BotResponse[]> {
    const bots = await this.bots.listOwned(ownerId);
    const documents = await this.files.documentsOf(bots.map((bot) => bot.id));
    return bots.map((bot) => this.toResponse(bot, documents.get(bot.id) ?? null));
  }

  /**
   * A new bot with every default (docs/product.md#bot-defaults), and the configured monthly budget
   * (DEFAULT_BOT_BUDGET_DOLLARS), not "no limit". `name` arrives trimmed and non-empty.
   */
  async create(ownerId: number, name: string): Promise<{ id: number; name: string }> {
    const bot = await this.transactions.run(async (tx) => {
      // An account holds a bounded number of bots (docs/product.md#quotas), counted under a lock
      // so two creations at once cannot both take the last place.
      await this.bots.lockOwnerBotCount(tx, ownerId);
      const limit = this.config.quotas.maxBotsPerAccount;
      if ((await this.bots.countOwned(tx, ownerId)) >= limit) {
        throw AppError.conflict(botLimitSentence(limit), 'BOT_LIMIT_REACHED');
      }
      return this.bots.create(
        {
          ...BOT_DEFAULTS,
          starterQuestions: [],
          widgetLanguage: 'auto',
          showModelLabel: false,
          leadCapture: structuredClone(BOT_DEFAULTS.leadCapture),
          usageLimitDollars: this.config.defaultBotBudgetDollars,
          ownerId,
          categoryId: null,
          name,
          apiKey: newApiKey(),
          identitySecret: null,
        },
        tx,
      );
    });
    return { id: bot.id, name: bot.name };
  }

  async get(ownerId: number, id: number): Promise<BotResponse> {
    const bot = await this.bots.findOwned(ownerId, id);
    if (!bot) throw this.notFound();
    return this.withDocument(bot);
  }

  /**
   * Saves any subset of the tabs' fields in one UPDATE inside one transaction: either every
   * field is saved or none. The DTO has checked each field's shape; here values are normalised
   * and the rules that need the database are applied (own category, own icon).
   */
  async update(ownerId: number, id: number, dto: UpdateBotDto): Promise<BotResponse> {
    const { bot, replacedIcon } = await this.transactions.run(async (tx) => {
      const current = await this.bots.findOwnedForUpdate(tx, ownerId, id);
      if (!current) throw this.notFound();
      const changes = this.changesFrom(dto, current);
      if (changes.categoryId !== undefined && changes.categoryId !== null) {
        await this.categories.assertOwnedForUpdate(tx, ownerId, changes.categoryId);
      }
      if (Object.keys(changes).length > 0) await this.bots.update(tx, ownerId, id, changes);
      const saved = (await this.bots.findOwned(ownerId, id, tx))!;
      const iconChanged = changes.bubbleIcon !== undefined && changes.bubbleIcon !== current.bubbleIcon;
      return { bot: saved, replacedIcon: iconChanged ? current.bubbleIcon : null };
    });
    if (replacedIcon) await this.removeIconFile(replacedIcon);
    if (dto.leadCapture !== undefined) await this.announceLeadAddresses(ownerId, bot.leadCapture.notifyEmails);
    return this.withDocument(bot);
  }

  /** Registers a listener of saved lead addresses (docs/product.md#mail-consent). */
  onLeadAddressesSaved(listener: (ownerId: number, emails: string[]) => Promise<void>): void {
    this.leadAddressListeners.push(listener);
  }

  /** After the commit: a listener's failure is logged, never the owner's error (the bot is saved). */
  private async announceLeadAddresses(ownerId: number, emails: string[]): Promise<void> {
    for (const listener of this.leadAddressListeners) {
      try {
        await listener(ownerId, emails);
      } catch (error) {
        this.logger.error(`Could not ask lead addresses to confirm: ${describeError(error)}`);
      }
    }
  }

  /**
   * A new API key for the bot. Chat requests read the key from the row each time, so the old
   * key is refused from the moment this UPDATE commits.
   */
  async rotateApiKey(ownerId: number, id: number): Promise<{ apiKey: string }> {
    const apiKey = newApiKey();
    if (!(await this.bots.replaceApiKey(ownerId, id, apiKey))) throw this.notFound();
    return { apiKey };
  }

  /**
   * A new identity secret for the bot (docs/product.md#verified-visitors), answered this once and
   * stored sealed: proofs signed with the old one make anonymous visitors from the moment this
   * UPDATE commits (chat requests read the secret from the row each time).
   */
  async rotateIdentitySecret(ownerId: number, id: number): Promise<{ identitySecret: string }> {
    const identitySecret = newIdentitySecret();
    this.identitySecrets ??= new IdentitySecretBox(sessionSecret(this.config));
    const sealed = this.identitySecrets.seal(identitySecret, id);
    if (!(await this.bots.replaceIdentitySecret(ownerId, id, sealed))) throw this.notFound();
    return { identitySecret };
  }

  /** Whether the bot has an identity secret and the proofs refused this week (today, UTC, and six days before). */
  async identityStatus(ownerId: number, id: number, now = new Date()): Promise<BotIdentityStatus> {
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 6));
    const status = await this.bots.identityStatus(ownerId, id, since);
    if (!status) throw this.notFound();
    return { secretSet: status.secretSet, refusedThisWeek: status.refused };
  }

  /** Deletes the bot, its sources and passages (cascade) and its stored files. Logs and usage stay. */
  async delete(ownerId: number, id: number): Promise<void> {
    const files = await this.transactions.run(async (tx) => {
      const bot = await this.bots.findOwnedForUpdate(tx, ownerId, id);
      if (!bot) throw this.notFound();
      const fileKeys = await this.files.storageKeysOfBot(id, tx);
      await this.bots.deleteOwned(tx, ownerId, id);
      return { icon: bot.bubbleIcon, fileKeys };
    });
    if (files.icon) await this.removeIconFile(files.icon);
    for (const key of files.fileKeys) await this.removeFile(key);
  }

  /**
   * For account deletion: every bot (with documents and passages), every category and every
   * stored file of the owner. Rows go in one transaction; files after it commits.
   */
  async deleteAllOwnedBy(ownerId: number): Promise<{ bots: number; categories: number }> {
    const result = await this.transactions.run(async (tx) => {
      const icons = await this.bots.listOwnedIcons(tx, ownerId);
      const documentKeys = await this.files.storageKeysOfOwner(ownerId, tx);
      const bots = await this.bots.deleteAllOwned(tx, ownerId);
      const categories = await this.categories.deleteAllOwnedBy(tx, ownerId);
      return { icons, documentKeys, counts: { bots, categories } };
    });
    for (const icon of result.icons) await this.removeIconFile(icon);
    for (const key of result.documentKeys) await this.removeFile(key);
    return result.counts;
  }

  /** 404 unless `botId` is one of the owner's bots. */
  async assertOwned(ownerId: number, botId: number): Promise<void> {
    if (!(await this.bots.findOwned(ownerId, botId))) throw this.notFound();
  }

  /**
   * Runs `work` in one transaction holding the lock on the owner's bot row (404 when it is not
   * theirs), e.g. to replace its document while no update or deletion of the bot interleaves.
   */
  withLockedBot<T>(ownerId: number, botId: number, work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transactions.run(async (tx) => {
      if (!(await this.bots.findOwnedForUpdate(tx, ownerId, botId))) throw this.notFound();
      return work(tx);
    });
  }

  /**
   * Points the bot at a freshly stored icon and removes the file of the one it replaces.
   * Throws 404 (and the caller removes the new file) when the bot is gone or not the owner's.
   */
  async setIcon(ownerId: number, botId: number, fileUrl: string): Promise<void> {
    const previous = await this.transactions.run(async (tx) => {
      const bot = await this.bots.findOwnedForUpdate(tx, ownerId, botId);
      if (!bot) throw this.notFound();
      await this.bots.update(tx, ownerId, botId, { bubbleIcon: fileUrl });
      return bot.bubbleIcon;
    });
    if (previous && previous !== fileUrl) await this.removeIconFile(previous);
  }

  private changesFrom(dto: UpdateBotDto, current: BotEntity): BotChanges {
    const changes: BotChanges = {};
    const assign = <K extends keyof BotChanges>(key: K, value: BotChanges[K]) => {
      changes[key] = value;
    };
    for (const field of PLAIN_FIELDS) {
      if (dto[field] !== undefined) assign(field, dto[field]);
    }
    for (const field of GRADIENT_FIELDS) {
      if (dto[field] !== undefined) assign(field, normaliseGradient(dto[field])!);
    }
    if (dto.bubbleBorderRadius !== undefined) assign('bubbleBorderRadius', normaliseRadius(dto.bubbleBorderRadius)!);
    if (dto.chatWindowBorderRadius !== undefined) {
      assign('chatWindowBorderRadius', normaliseRadius(dto.chatWindowBorderRadius)!);
    }
    if (dto.leadCapture !== undefined) assign('leadCapture', normaliseLeadCapture(dto.leadCapture));
    if (dto.allowedDomain !== undefined) assign('allowedDomain', normaliseAllowedDomain(dto.allowedDomain)!);
    if (dto.bubbleIcon !== undefined) {
      // A new icon arrives through POST /api/upload/icon; here it can only be kept or removed,
      // so every stored icon belongs to exactly one bot.
      if (dto.bubbleIcon !== '' && dto.bubbleIcon !== current.bubbleIcon) {
        throw AppError.badRequest(
          "Invalid bubbleIcon: it can only be emptied or kept as this bot's current icon. Upload an image to change it.",
          'VALIDATION_FAILED',
        );
      }
      assign('bubbleIcon', dto.bubbleIcon);
    }
    return changes;
  }

  private async withDocument(bot: BotEntity): Promise<BotResponse> {
    const documents = await this.files.documentsOf([bot.id]);
    return this.toResponse(bot, documents.get(bot.id) ?? null);
  }

  private async removeIconFile(url: string): Promise<void> {
    const key = iconKeyFromUrl(this.config, url);
    if (key) await this.removeFile(key);
  }

  /** A file that cannot be removed is logged, never an error for the owner: the rows are gone. */
  private async removeFile(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn(`Could not remove stored file ${key}: ${describeError(error)}`);
    }
  }

  private notFound(): AppError {
    return AppError.notFound('Bot not found.', 'BOT_NOT_FOUND');
  }

  toResponse(bot: BotEntity, document: DocumentResponse | null): BotResponse {
    return {
      id: bot.id,
      name: bot.name,
      apiKey: bot.apiKey,
      prompt: bot.prompt,
      customGreeting: bot.customGreeting,
      starterQuestions: bot.starterQuestions,
      widgetLanguage: bot.widgetLanguage,
      model: bot.model,
      showModelLabel: bot.showModelLabel,
      categoryId: bot.categoryId,
      allowedDomain: bot.allowedDomain,
      document,
      ...toAppearance(bot),
      maxTokens: bot.maxTokens,
      temperature: Math.round(bot.temperature * 100) / 100,
      usageLimitDollars: bot.usageLimitDollars,
      leadCapture: bot.leadCapture,
    };
  }
}
