import { describe, expect, it } from '@jest/globals';
import type { BotEntity } from '../bots/bot.entity.js';
import type { ChatRepository, ServableBot } from './chat.repository.js';
import { SERVABLE_BOTS_CACHED, ServableBots } from './servable-bots.js';

/** ServableBots over a repository that counts its reads; bots above 1,000,000 do not exist. */
function servableBots() {
  const reads: number[] = [];
  let version = 1;
  const repository = {
    findServableBot: async (botId: number): Promise<ServableBot | null> => {
      reads.push(botId);
      if (botId > 1_000_000) return null;
      return { bot: { id: botId, name: 'Bot' } as BotEntity, ownerIsSystem: false, version: String(version) };
    },
  };
  const bots = new ServableBots(repository as unknown as ChatRepository);
  return { bots, reads, nextVersion: () => (version += 1) };
}

describe('ServableBots: the bots this instance answered for', () => {
  it('reads a bot once, then answers from the copy until it is forgotten or read fresh', async () => {
    const { bots, reads, nextVersion } = servableBots();
    expect((await bots.cached(7))?.version).toBe('1');
    expect((await bots.cached(7))?.version).toBe('1');
    expect(reads).toEqual([7]);

    nextVersion();
    bots.forget(7);
    expect((await bots.cached(7))?.version).toBe('2');
    nextVersion();
    expect((await bots.fresh(7))?.version).toBe('3');
    // The fresh read is the copy from then on.
    expect((await bots.cached(7))?.version).toBe('3');
    expect(reads).toEqual([7, 7, 7]);
  });

  it('keeps no unknown bot: made-up ids are read each time and fill nothing', async () => {
    const { bots, reads } = servableBots();
    expect(await bots.cached(2_000_000)).toBeNull();
    expect(await bots.cached(2_000_000)).toBeNull();
    expect(reads).toEqual([2_000_000, 2_000_000]);
  });

  it('a copy is frozen: no message can change what the next one is answered from', async () => {
    const { bots } = servableBots();
    const found = await bots.cached(7);
    expect(() => {
      (found!.bot as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
    expect((await bots.cached(7))?.bot.name).toBe('Bot');
  });

  it(`holds at most ${SERVABLE_BOTS_CACHED} bots, letting the least recently used go`, async () => {
    const { bots, reads } = servableBots();
    for (let id = 1; id <= SERVABLE_BOTS_CACHED; id += 1) await bots.cached(id);
    // Bot 1 is used again, so bot 2 is now the least recently used.
    await bots.cached(1);
    await bots.cached(SERVABLE_BOTS_CACHED + 1);
    reads.length = 0;
    await bots.cached(1);
    await bots.cached(SERVABLE_BOTS_CACHED + 1);
    expect(reads).toEqual([]);
    await bots.cached(2);
    expect(reads).toEqual([2]);
  });
});
