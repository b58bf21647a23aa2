import { Injectable } from '@nestjs/common';
import { LEADS_PAGE, type LeadSummary, type LeadsPage } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import type { Transaction } from '../../database/transaction.js';
import { decodeCursor, encodeCursor } from '../../common/keyset-cursor.js';
import type { LeadFiltersDto, LeadsPageQueryDto } from './leads.dto.js';
import { LeadsRepository, type LeadCursor, type LeadRow, type NewLead } from './leads.repository.js';

export function toLeadSummary(row: LeadRow): LeadSummary {
  return {
    id: row.id,
    botId: row.botId,
    botName: row.botName,
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
    conversationId: row.conversationId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The owner's leads (docs/product.md#leads-and-handoff): recorded by the chat module when a
 * visitor sends the form, listed newest first by keyset pages, exported, deleted. Another owner's
 * lead is 404 LEAD_NOT_FOUND and another owner's bot 404 BOT_NOT_FOUND: nothing tells whether it exists.
 */
@Injectable()
export class LeadsService {
  constructor(private readonly leads: LeadsRepository) {}

  /** Records a lead inside the caller's transaction (the one that marks the conversation handed off). */
  async record(tx: Transaction, lead: NewLead): Promise<LeadSummary> {
    return toLeadSummary(await this.leads.insert(tx, lead));
  }

  /** The bot filter: null for all, else a bot of the owner's (404 otherwise). */
  async botFilter(ownerId: number, query: LeadFiltersDto): Promise<number | null> {
    if (query.botId === undefined) return null;
    const botId = Number(query.botId);
    if (botId > 2_147_483_647 || !(await this.leads.ownerHasBot(ownerId, botId))) {
      throw AppError.notFound('This chatbot does not exist.', 'BOT_NOT_FOUND');
    }
    return botId;
  }

  async list(ownerId: number, query: LeadsPageQueryDto): Promise<LeadsPage> {
    let after: LeadCursor | null = null;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) {
        throw AppError.badRequest('This page link is not valid any more. Please reload the list.', 'INVALID_CURSOR');
      }
    }
    const botId = await this.botFilter(ownerId, query);
    const limit = LEADS_PAGE.limit;
    // One more than asked tells whether a next page exists without counting.
    const rows = await this.leads.findPage(ownerId, botId, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      leads: page.map(toLeadSummary),
      nextCursor: rows.length > limit && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
    };
  }

  async delete(ownerId: number, id: number): Promise<void> {
    if (!(await this.leads.deleteOwned(ownerId, id))) {
      throw AppError.notFound('This lead does not exist.', 'LEAD_NOT_FOUND');
    }
  }

  /**
   * Where the owner's replies in a conversation may be mailed to the visitor: the e-mail address
   * of its newest lead that has one (docs/product.md#owner-replies), or null.
   */
  visitorEmailOf(ownerId: number, conversationId: number): Promise<string | null> {
    return this.leads.latestEmailOf(ownerId, conversationId);
  }

  /** For the daily retention job: leads older than their owner's conversation retention. */
  deleteExpired(tx: Transaction, now: Date, limit: number): Promise<number> {
    return this.leads.deleteExpired(tx, now, limit);
  }
}
