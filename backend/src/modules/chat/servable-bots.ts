import { Injectable } from '@nestjs/common';
import { RecentlyUsedMap } from '../../common/recently-used-map.js';
import { ChatRepository, type ServableBot } from './chat.repository.js';

/** How many bots one instance keeps: past it, the least recently used goes. */
export const SERVABLE_BOTS_CACHED = 5_000;

/**
 * This instance's copies of the bots chat messages were answered for, so a message does not read
 * its bot before anything else (docs/decisions/0016-chat-path-cost.md#fourth-step-the-bot-read-once-per-instance).
 * A copy is never trusted alone: the statement that takes the visitor's lock checks that the
 * bot row is still the version the copy was read at (ChatRepository.holdIn), on every instance,
 * so a save, a new key or a deleted bot or owner is seen by the next message, with no message
 * between instances. Unknown bots are not kept, so made-up ids cannot fill it.
 */
@Injectable()
export class ServableBots {
  private readonly copies = new RecentlyUsedMap<number, ServableBot>(SERVABLE_BOTS_CACHED);

  constructor(private readonly repository: ChatRepository) {}

  /** The bot as last read on this instance, else read now. */
  async cached(botId: number): Promise<ServableBot | null> {
    return this.copies.get(botId) ?? this.fresh(botId);
  }

  /** The bot as the database has it now (kept for the next message). */
  async fresh(botId: number): Promise<ServableBot | null> {
    const found = await this.repository.findServableBot(botId);
    this.copies.delete(botId);
    if (!found) return null;
    // Shared by every message that finds it here: nothing may change it.
    Object.freeze(found.bot);
    this.copies.set(botId, found);
    return found;
  }

  /** The copy is out of date (holdIn said so): the next message reads the bot again. */
  forget(botId: number): void {
    this.copies.delete(botId);
  }
}
