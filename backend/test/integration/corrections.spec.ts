import { CORRECTION_LIMITS } from '@botsmith/contract';
import type request from 'supertest';
import { OFFLINE_MODEL_PREFIX } from '../../src/common/constants.js';
import { quotaExceededSentence } from '../../src/modules/knowledge/quota.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * Corrections (docs/product.md#corrections): the owner's answer to a visitor question, given
 * first — by the embedded offline model too — whenever a visitor asks that question or a close
 * variant, and never for another question.
 */
const QUOTA_BYTES = 20_000;
const ENV = {
  SOURCES_MAX_BYTES_PER_BOT: String(QUOTA_BYTES),
  OFFLINE_MODEL_WORD_DELAY_MS: '0',
  CHAT_IP_RATE_LIMIT: '1000',
};
const HOURS_QUESTION = 'What are your opening hours?';
const HOURS_ANSWER = 'We are open from 8 am to 6 pm, Monday to Saturday.';
const NOT_FOUND = { error: 'Bot not found.', code: 'BOT_NOT_FOUND' };

interface SourceBody {
  id: number;
  kind: string;
  name: string;
  bytes: number;
  chunks: number;
  correction: boolean;
  question: string | null;
}

describe('corrections', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;

  beforeAll(async () => {
    t = await startTestApp(ENV);
    owner = (await signedInAgent(t)).agent;
    other = (await signedInAgent(t)).agent;
  });
  afterAll(async () => {
    await t.close();
  });

  function correct(agent: request.Agent, botId: number, body: unknown) {
    return agent
      .post(`/api/bots/${botId}/corrections`)
      .set('Origin', t.origin)
      .send(body as object);
  }

  function ask(botId: number, prompt: string) {
    return t.http().post('/api/chat').set('Origin', 'https://shop.example').send({ botId, prompt });
  }

  async function sourcesOf(botId: number): Promise<SourceBody[]> {
    const response = await owner.get(`/api/bots/${botId}/sources`);
    expect(response.status).toBe(200);
    return response.body.sources as SourceBody[];
  }

  async function botWithNotes(name: string): Promise<number> {
    const botId = await createBotViaApi(t, owner, name);
    const notes = [
      { name: 'Hours', text: 'Opening hours: we open at nine in the morning. Delivery hours are from noon.' },
      { name: 'Shipping', text: 'We ship to every country in Europe within five days.' },
    ];
    for (const note of notes) {
      const added = await owner.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send(note);
      expect(added.status).toBe(201);
    }
    return botId;
  }

  it("changes the next answer: the owner's answer, for the question and its close variants only", async () => {
    const botId = await botWithNotes('Bakery');
    const before = await ask(botId, HOURS_QUESTION);
    expect(before.status).toBe(200);
    expect(before.body.message).toContain('we open at nine in the morning');
    expect(before.body.message).not.toContain(HOURS_ANSWER);

    const created = await correct(owner, botId, { question: `  ${HOURS_QUESTION} `, answer: HOURS_ANSWER });
    expect(created.status).toBe(201);
    const source = created.body.source as SourceBody;
    expect(source).toEqual({
      id: expect.any(Number),
      kind: 'text',
      name: HOURS_QUESTION,
      status: 'ready',
      error: null,
      pages: null,
      chunks: 1,
      bytes: Buffer.byteLength(HOURS_ANSWER),
      url: null,
      refreshSchedule: null,
      lastRefreshedAt: null,
      nextRefreshAt: null,
      notice: null,
      correction: true,
      question: HOURS_QUESTION,
      reference: false,
      embedded: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    for (const variant of [
      HOURS_QUESTION,
      'what are the opening hours',
      'WHAT ARE YOUR OPENING HOURS??',
      'When do you open?',
      'Opening hours',
    ]) {
      const after = await ask(botId, variant);
      expect(after.status).toBe(200);
      expect({ variant, message: after.body.message }).toEqual({
        variant,
        message: `${OFFLINE_MODEL_PREFIX}${HOURS_ANSWER}`,
      });
      expect(after.body.citations).toEqual([{ sourceId: source.id, name: HOURS_QUESTION, page: null, url: null }]);
      // The owner answered it: never flagged unanswered.
      const [logged]: { unanswered: boolean }[] = await t.dataSource.query(
        'SELECT unanswered FROM messages WHERE id = $1',
        [after.body.messageId],
      );
      expect(logged.unanswered).toBe(false);
    }

    // Other questions, even ones sharing a word with it, keep their own answers.
    const delivery = await ask(botId, 'What are your delivery hours?');
    expect(delivery.body.message).toContain('Delivery hours are from noon.');
    expect(delivery.body.message).not.toContain(HOURS_ANSWER);
    const shipping = await ask(botId, 'Do you ship to Europe?');
    expect(shipping.body.message).toContain('We ship to every country in Europe within five days.');
    const unrelated = await ask(botId, 'Can I bring my dog?');
    expect(unrelated.body.message).not.toContain(HOURS_ANSWER);
  });

  it('is listed with the sources (marked, with its question) and deleted like one', async () => {
    const botId = await botWithNotes('Listed');
    const created = await correct(owner, botId, { question: HOURS_QUESTION, answer: HOURS_ANSWER });
    const id = created.body.source.id as number;
    const listed = await sourcesOf(botId);
    expect(listed.map((s) => [s.name, s.correction, s.question])).toEqual([
      ['Hours', false, null],
      ['Shipping', false, null],
      [HOURS_QUESTION, true, HOURS_QUESTION],
    ]);

    await owner.delete(`/api/bots/${botId}/sources/${id}`).set('Origin', t.origin).expect(204);
    expect((await sourcesOf(botId)).map((s) => s.name)).toEqual(['Hours', 'Shipping']);
    const answer = await ask(botId, HOURS_QUESTION);
    expect(answer.body.message).toContain('we open at nine in the morning');
    expect(answer.body.message).not.toContain(HOURS_ANSWER);
  });

  it('the newest correction of a question wins; a long question is named by its first 200 characters', async () => {
    const botId = await createBotViaApi(t, owner, 'Twice');
    await correct(owner, botId, { question: 'Is there parking?', answer: 'Parking is on the street.' }).expect(201);
    await correct(owner, botId, { question: 'Is there parking', answer: 'Park in our own car park.' }).expect(201);
    expect((await ask(botId, 'Where can I park?')).body.message).toBe(
      `${OFFLINE_MODEL_PREFIX}Park in our own car park.`,
    );

    const long = `Do you ${'really '.repeat(200)}bake bread?`.slice(0, CORRECTION_LIMITS.questionMaxChars);
    const created = await correct(owner, botId, { question: long, answer: 'Every morning.' });
    expect(created.status).toBe(201);
    expect(created.body.source.name).toBe(`${long.slice(0, 199)}…`);
    expect(created.body.source.question).toBe(long);
  });

  it('400 for a missing, empty, overlong or unstorable question or answer; nothing stored', async () => {
    const botId = await createBotViaApi(t, owner, 'Validation');
    const cases: Array<[unknown, string]> = [
      [{ answer: HOURS_ANSWER }, 'Write the visitor\'s question in "question".'],
      [{ question: '   ', answer: HOURS_ANSWER }, 'Write the visitor\'s question in "question".'],
      [{ question: HOURS_QUESTION, answer: ' \n ' }, 'Write your answer in "answer".'],
      [{ question: HOURS_QUESTION }, 'Write your answer in "answer".'],
      [{ question: 'q'.repeat(1001), answer: HOURS_ANSWER }, 'The question can be at most 1,000 characters.'],
      [{ question: HOURS_QUESTION, answer: 'a'.repeat(4001) }, 'The answer can be at most 4,000 characters.'],
    ];
    for (const [body, sentence] of cases) {
      const response = await correct(owner, botId, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: sentence, code: 'VALIDATION_FAILED' });
    }
    for (const body of [
      { question: 'a\u0000b', answer: HOURS_ANSWER },
      { question: HOURS_QUESTION, answer: 'x\u0000' },
      { question: 'x\ud800', answer: HOURS_ANSWER },
    ]) {
      const response = await correct(owner, botId, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_CHARACTERS');
    }
    for (const body of [
      { question: HOURS_QUESTION, answer: HOURS_ANSWER, extra: 1 },
      [HOURS_QUESTION, HOURS_ANSWER],
      { question: [HOURS_QUESTION], answer: HOURS_ANSWER },
      { question: 42, answer: HOURS_ANSWER },
      { question: HOURS_QUESTION, answer: { text: HOURS_ANSWER } },
    ]) {
      expect((await correct(owner, botId, body)).status).toBe(400);
    }
    // Only punctuation: no words to answer from.
    const noWords = await correct(owner, botId, { question: HOURS_QUESTION, answer: '\u0007' });
    expect(noWords.status).toBe(422);
    expect(noWords.body).toEqual({ error: 'This text has no words to answer from.', code: 'SOURCE_NO_TEXT' });
    expect(await sourcesOf(botId)).toEqual([]);
  });

  it("counts in the bot's quota like written answers (413 past it)", async () => {
    const botId = await createBotViaApi(t, owner, 'Full');
    const big = `${'Flour comes from the mill. '.repeat(700)}`.slice(0, QUOTA_BYTES - 3000);
    await owner
      .post(`/api/bots/${botId}/sources/text`)
      .set('Origin', t.origin)
      .send({ name: 'Flour', text: big })
      .expect(201);
    const fits = await correct(owner, botId, { question: 'Flour?', answer: 'b'.repeat(2000) });
    expect(fits.status).toBe(201);
    const over = await correct(owner, botId, { question: 'Sugar?', answer: 'c'.repeat(1500) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: quotaExceededSentence(QUOTA_BYTES), code: 'SOURCES_QUOTA_EXCEEDED' });
    expect((await sourcesOf(botId)).map((s) => s.name)).toEqual(['Flour', 'Flour?']);
  });

  it("404 BOT_NOT_FOUND for another owner's bot (or none); nothing stored, nothing answered", async () => {
    const botId = await botWithNotes('Private');
    const responses = [
      await correct(other, botId, { question: HOURS_QUESTION, answer: 'Closed for ever.' }),
      await correct(owner, 2_147_483_647, { question: HOURS_QUESTION, answer: 'Closed for ever.' }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect((await sourcesOf(botId)).some((s) => s.correction)).toBe(false);
    expect((await ask(botId, HOURS_QUESTION)).body.message).not.toContain('Closed for ever.');
  });

  it('needs the session, and the same site', async () => {
    const botId = await createBotViaApi(t, owner, 'Session');
    const anonymous = await t
      .http()
      .post(`/api/bots/${botId}/corrections`)
      .set('Origin', t.origin)
      .send({ question: HOURS_QUESTION, answer: HOURS_ANSWER });
    expect(anonymous.status).toBe(401);
    const crossSite = await owner
      .post(`/api/bots/${botId}/corrections`)
      .set('Origin', 'https://evil.example')
      .send({ question: HOURS_QUESTION, answer: HOURS_ANSWER });
    expect(crossSite.status).toBe(403);
    expect(await sourcesOf(botId)).toEqual([]);
  });
});
