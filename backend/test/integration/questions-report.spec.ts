import type { QuestionsReport } from '@botsmith/contract';
import type request from 'supertest';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * The unanswered-questions report (docs/product.md#unanswered-questions): visitors' questions
 * asked through the real chat, grouped with their close variants, most asked first, within the
 * period. Most cases set which answers are unanswered directly, so the report's rules are
 * tested apart from the chat's; one goes through the real chat and feedback.
 */
const ENV = { OFFLINE_MODEL_WORD_DELAY_MS: '0', CHAT_IP_RATE_LIMIT: '1000' };
const NOT_FOUND = { error: 'Bot not found.', code: 'BOT_NOT_FOUND' };

interface Asked {
  conversationId: number;
  answerId: number;
  token: string;
}

describe('the unanswered-questions report', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;
  let botId: number;
  const asked: Record<string, Asked> = {};

  beforeAll(async () => {
    t = await startTestApp(ENV);
    owner = (await signedInAgent(t)).agent;
    other = (await signedInAgent(t)).agent;
    botId = await createBotViaApi(t, owner, 'Report');
    await owner
      .post(`/api/bots/${botId}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Shipping', text: 'We ship to Canada and to every country in Europe.' })
      .expect(201);

    // name: [question, unanswered?, days ago, visitor (same name: same conversation)]
    const script: Array<[string, string, boolean, number, string]> = [
      ['hours1', 'What are your opening hours?', true, 0, 'a'],
      ['ship', 'Do you ship to Canada?', false, 0, 'a'],
      ['hours2', 'what are the opening hours', true, 0, 'b'],
      ['hours3', 'When do you open?', true, 0, 'c'],
      ['dog1', 'Can I bring my dog?', true, 0, 'd'],
      ['dog2', 'can i bring my DOG', true, 40, 'e'],
      ['who', 'Who are you?', true, 10, 'f'],
    ];
    const tokens: Record<string, string> = {};
    for (const [name, question, unanswered, daysAgo, visitor] of script) {
      asked[name] = await ask(botId, question, tokens[visitor]);
      tokens[visitor] = asked[name].token;
      await setUnanswered(asked[name].answerId, unanswered);
      if (daysAgo > 0) await moveBack(asked[name].conversationId, daysAgo);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  async function ask(bot: number, prompt: string, token?: string): Promise<Asked> {
    const call = t.http().post('/api/chat').set('Origin', 'https://shop.example');
    if (token) call.set('X-Visitor-Token', token);
    const response = await call.send({ botId: bot, prompt });
    expect(response.status).toBe(200);
    const [answer]: { id: number; conversation_id: number }[] = await t.dataSource.query(
      `SELECT m.id, m.conversation_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.bot_id = $1 AND m.role = 'assistant' ORDER BY m.id DESC LIMIT 1`,
      [bot],
    );
    return {
      conversationId: Number(answer.conversation_id),
      answerId: Number(answer.id),
      token: String(response.headers['x-visitor-token']),
    };
  }

  async function setUnanswered(answerId: number, unanswered: boolean): Promise<void> {
    await t.dataSource.query('UPDATE messages SET unanswered = $2 WHERE id = $1', [answerId, unanswered]);
  }

  /** The conversation happened `days` ago. */
  async function moveBack(conversationId: number, days: number): Promise<void> {
    await t.dataSource.query(
      `UPDATE messages SET created_at = created_at - $2 * interval '1 day' WHERE conversation_id = $1`,
      [conversationId, days],
    );
    await t.dataSource.query(
      `UPDATE conversations SET last_message_at = last_message_at - $2 * interval '1 day' WHERE id = $1`,
      [conversationId, days],
    );
  }

  async function report(query = '', agent = owner, bot = botId): Promise<request.Response> {
    return agent.get(`/api/bots/${bot}/questions${query}`);
  }

  async function questionsOf(query = ''): Promise<Array<[string, number, number[]]>> {
    const response = await report(query);
    expect(response.status).toBe(200);
    return (response.body as QuestionsReport).questions.map((q) => [q.text, q.count, q.conversationIds]);
  }

  it('groups the unanswered questions of the last 30 days with their close variants, most asked first', async () => {
    const response = await report();
    expect(response.status).toBe(200);
    const body = response.body as QuestionsReport;
    // Shown in the wording of its latest asking when each wording was asked as often.
    expect(body.questions.map((q) => [q.text, q.count, q.conversationIds])).toEqual([
      ['When do you open?', 3, [asked.hours3.conversationId, asked.hours2.conversationId, asked.hours1.conversationId]],
      ['Can I bring my dog?', 1, [asked.dog1.conversationId]],
      ['Who are you?', 1, [asked.who.conversationId]],
    ]);
    const [latest]: { created_at: Date }[] = await t.dataSource.query(
      `SELECT created_at FROM messages WHERE conversation_id = $1 AND role = 'user' ORDER BY id DESC LIMIT 1`,
      [asked.hours3.conversationId],
    );
    expect(body.questions[0].lastAskedAt).toBe(new Date(latest.created_at).toISOString());
    expect(await questionsOf('?filter=unanswered&period=30d')).toEqual(await questionsOf());
  });

  it('keeps to the period: 7 days, 90 days', async () => {
    expect((await questionsOf('?period=7d')).map(([, count, ids]) => [count, ids.length])).toEqual([
      [3, 3],
      [1, 1],
    ]);
    expect((await questionsOf('?period=90d')).slice(1)).toEqual([
      ['Can I bring my dog?', 2, [asked.dog1.conversationId, asked.dog2.conversationId]],
      ['Who are you?', 1, [asked.who.conversationId]],
    ]);
  });

  it("lists every visitor question with filter 'all'", async () => {
    const all = await questionsOf('?filter=all');
    expect(all.map(([, count]) => count)).toEqual([3, 1, 1, 1]);
    expect(all).toContainEqual(['Do you ship to Canada?', 1, [asked.ship.conversationId]]);
  });

  it('marks what a correction fixed and lists it after the open ones, until it is asked again and still not answered', async () => {
    const bot = await createBotViaApi(t, owner, 'Fixed');
    const first = await ask(bot, 'What are your opening hours?');
    await setUnanswered(first.answerId, true);
    const unrelated = await ask(bot, 'Can I bring my dog?');
    await setUnanswered(unrelated.answerId, true);
    const listed = async () =>
      ((await report('', owner, bot)).body as QuestionsReport).questions.map((q) => [q.text, q.count]);
    expect(await listed()).toEqual([
      ['Can I bring my dog?', 1],
      ['What are your opening hours?', 1],
    ]);

    await owner
      .post(`/api/bots/${bot}/corrections`)
      .set('Origin', t.origin)
      .send({ question: 'Opening hours?', answer: 'We open at eight.' })
      .expect(201);
    // issue 27: a fixed question stays listed, marked fixed, after the open ones.
    const marked = async () =>
      ((await report('', owner, bot)).body as QuestionsReport).questions.map((q) => [q.text, q.fixed]);
    expect(await marked()).toEqual([
      ['Can I bring my dog?', false],
      ['What are your opening hours?', true],
    ]);

    const again = await ask(bot, 'When do you open?');
    await setUnanswered(again.answerId, true);
    expect(await marked()).toEqual([
      ['When do you open?', false],
      ['Can I bring my dog?', false],
      ['What are your opening hours?', true],
    ]);
  });

  it('through the real chat: what the bot could not answer or the visitor rated down, until corrected', async () => {
    const bot = await createBotViaApi(t, owner, 'Real');
    await owner
      .post(`/api/bots/${bot}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Shipping', text: 'We ship to Canada and to every country in Europe.' })
      .expect(201);
    const listed = async () =>
      ((await report('', owner, bot)).body as QuestionsReport).questions.map((q) => [q.text, q.count]);
    const chat = async (prompt: string, token?: string) => {
      const call = t.http().post('/api/chat').set('Origin', 'https://shop.example');
      if (token) call.set('X-Visitor-Token', token);
      const response = await call.send({ botId: bot, prompt });
      expect(response.status).toBe(200);
      return {
        ...(response.body as { message: string; messageId: number }),
        token: String(response.headers['x-visitor-token']),
      };
    };

    await chat('Do you ship to Canada?');
    await chat('Is there a vegan menu?');
    await chat('is there a VEGAN menu');
    const shipped = await chat('Do you ship to Europe?');
    expect(await listed()).toEqual([['is there a VEGAN menu', 2]]);

    // A visitor who rates an answer down flags it.
    await t
      .http()
      .post('/api/chat/feedback')
      .set('Origin', 'https://shop.example')
      .set('X-Visitor-Token', shipped.token)
      .send({ botId: bot, messageId: shipped.messageId, rating: 'down' })
      .expect(204);
    expect(await listed()).toEqual([
      ['is there a VEGAN menu', 2],
      ['Do you ship to Europe?', 1],
    ]);

    await owner
      .post(`/api/bots/${bot}/corrections`)
      .set('Origin', t.origin)
      .send({ question: 'Is there a vegan menu?', answer: 'Yes: three vegan dishes every day.' })
      .expect(201);
    // issue 27: the corrected question stays, marked fixed, after the open one.
    const open = async () =>
      ((await report('', owner, bot)).body as QuestionsReport).questions
        .filter((q) => !q.fixed)
        .map((q) => [q.text, q.count]);
    expect(await open()).toEqual([['Do you ship to Europe?', 1]]);
    expect(await listed()).toEqual([
      ['Do you ship to Europe?', 1],
      ['is there a VEGAN menu', 2],
    ]);
    const corrected = await chat('Do you have a vegan menu?');
    expect(corrected.message).toContain('Yes: three vegan dishes every day.');
    expect(await open()).toEqual([['Do you ship to Europe?', 1]]);
  });

  it("is the bot's own: another bot's questions stay out, another owner gets 404", async () => {
    const quiet = await createBotViaApi(t, owner, 'Quiet');
    expect((await report('', owner, quiet)).body).toEqual({ questions: [] });
    for (const response of [await report('', other), await report('', owner, 2_147_483_647)]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect((await t.http().get(`/api/bots/${botId}/questions`)).status).toBe(401);
  });

  it('400 for an unknown filter or period, or an unknown parameter', async () => {
    const sentences: Array<[string, string]> = [
      ['?filter=negative', 'Choose the questions to list: "unanswered" or "all".'],
      ['?period=1y', 'Choose the period: "7d", "30d" or "90d".'],
      ['?period=7d&period=30d', 'Choose the period: "7d", "30d" or "90d".'],
    ];
    for (const [query, sentence] of sentences) {
      const response = await report(query);
      expect({ query, body: response.body }).toEqual({ query, body: { error: sentence, code: 'VALIDATION_FAILED' } });
    }
    for (const query of ['?filter[a]=1', '?period=%00', '?period=%E0%A4%A', `?filter=${'a'.repeat(5000)}`]) {
      expect({ query, status: (await report(query)).status }).toEqual({ query, status: 400 });
    }
    expect((await report('?since=2020-01-01')).status).toBe(400);
  });
});
