import pg from 'pg';
import { CANNOT_ANSWER_SENTENCE } from '@botsmith/contract';
import { jest } from '@jest/globals';
import type request from 'supertest';
import { DEMO_BOT_ID, OFFLINE_MODEL_PREFIX } from '../../src/common/constants.js';
import { OFFLINE_CANNOT_ANSWER_NOTE } from '../../src/modules/chat/llm/offline-demo-llm.adapter.js';
import { OFFLINE_LANGUAGE_NOTES } from '../../src/modules/chat/llm/question-language.js';
import { KnowledgeSearchService } from '../../src/modules/knowledge/knowledge-search.service.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { visitor } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Retrieval that understands a shopper without an embeddings model (docs/product.md#knowledge-sources):
 * the question's words and their English synonyms, through the real app and the offline demo model.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

function chat(botId: number, prompt: string, origin: string) {
  return t.http().post('/api/chat').set('X-Visitor-Id', visitor()).set('Origin', origin).send({ botId, prompt });
}

describe("the landing page's demo bot answers a prospect's first questions", () => {
  it.each([
    ['How much does it cost?', 'Pricing is per answered message: 3 cents per message'],
    ['Is it free?', 'Every new account gets $5 of free credits'],
    ['Can I use my own domain?', 'launch AI chatbots on your own website'],
  ])('"%s"', async (question, expected) => {
    const response = await chat(DEMO_BOT_ID, question, t.origin);
    expect(response.status).toBe(200);
    expect(response.body.message.startsWith(OFFLINE_MODEL_PREFIX)).toBe(true);
    expect(response.body.message).toContain(expected);
    expect(response.body.message).not.toContain(CANNOT_ANSWER_SENTENCE);
  });

  it('answers a German question with its note in German, never the English apology', async () => {
    const response = await chat(DEMO_BOT_ID, 'Wie viel kostet es?', t.origin);
    expect(response.status).toBe(200);
    expect(response.body.message).toContain(OFFLINE_LANGUAGE_NOTES.de);
    expect(response.body.message).not.toContain(OFFLINE_CANNOT_ANSWER_NOTE);
  });
});

describe("an owner's bot: synonyms find a passage in other words, ranked below the question's own words", () => {
  let owner: request.Agent;
  let botId: number;
  const sources: Record<string, number> = {};

  beforeAll(async () => {
    owner = (await signedInAgent(t)).agent;
    botId = await createBotViaApi(t, owner, 'Synonyms');
    for (const [name, text] of [
      ['Prices', 'Membership is priced at nine pounds a month, billed yearly.'],
      ['Opening hours', 'The shop opens at nine and closes at five on weekdays.'],
      ['Warranty', 'Every kettle has a two-year warranty.'],
      ['Knives', 'We guarantee every knife for life.'],
    ]) {
      const created = await owner.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send({ name, text });
      expect(created.status).toBe(201);
      sources[name] = created.body.source.id;
    }
  });

  it('answers "What does it cost?" from the passage that says "priced" (no passage says "cost"), citing it', async () => {
    const response = await chat(botId, 'What does it cost?', 'https://shop.example');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(
      `${OFFLINE_MODEL_PREFIX}Membership is priced at nine pounds a month, billed yearly.`,
    );
    expect(response.body.citations).toEqual([{ sourceId: sources.Prices, name: 'Prices', page: null, url: null }]);
    // Answered from a passage about the question, in other words: not listed as unanswered.
    const [row] = await t.dataSource.query<{ unanswered: boolean }[]>('SELECT unanswered FROM messages WHERE id = $1', [
      response.body.messageId,
    ]);
    expect(row.unanswered).toBe(false);
  });

  it('puts a passage holding the question word itself above one holding only its synonym', async () => {
    const response = await chat(botId, 'Is there a warranty?', 'https://shop.example');
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(`${OFFLINE_MODEL_PREFIX}Every kettle has a two-year warranty.`);
    expect(response.body.citations[0]).toEqual({ sourceId: sources.Warranty, name: 'Warranty', page: null, url: null });
  });

  it('does not make an unrelated question match: the bot still cannot answer it', async () => {
    const response = await chat(botId, 'Do you repair bicycles?', 'https://shop.example');
    expect(response.status).toBe(200);
    expect(response.body.message.startsWith(CANNOT_ANSWER_SENTENCE)).toBe(true);
    expect(response.body.citations).toEqual([]);
    const [row] = await t.dataSource.query<{ unanswered: boolean }[]>('SELECT unanswered FROM messages WHERE id = $1', [
      response.body.messageId,
    ]);
    expect(row.unanswered).toBe(true);
  });

  it("finds an answer's passages and their relevance in one statement (docs/decisions/0016-chat-path-cost.md)", async () => {
    const search = t.app.get(KnowledgeSearchService);
    // Counted where every statement leaves, the driver's client (prepared ones skip TypeORM). The
    // app's background work (its workers' first look after the start, the outbox) may make
    // statements meanwhile: those about passages or the bot's website sources are the search's.
    const statements = jest.spyOn(pg.Client.prototype, 'query');
    try {
      const found = await search.searchForAnswer(botId, 'What does it cost?');
      expect(found.passages.map((passage) => passage.citation.name)).toEqual(['Prices']);
      expect(found).toMatchObject({ nothingRelevant: false, sourceSites: [] });
      const unrelated = await search.searchForAnswer(botId, 'Do you repair bicycles?');
      expect(unrelated).toMatchObject({ nothingRelevant: true, sourceSites: [] });
      const texts = statements.mock.calls.map(([config]) =>
        typeof config === 'string' ? config : (config as { text: string }).text,
      );
      const searches = texts.filter((text) => /document_chunks|kind = 'website'/.test(text));
      expect(searches).toHaveLength(2);
      expect(searches[0]).toBe(searches[1]);
      expect(searches[0]).toMatch(/^WITH q AS/);
    } finally {
      statements.mockRestore();
    }
  });
});
